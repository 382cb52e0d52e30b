import { Global, Module } from '@nestjs/common';
import { DueWorkRegistry } from './due-work-registry';

/** The due-work registry, global so any feature module can register its timed work. */
@Global()
@Module({
  providers: [DueWorkRegistry],
  exports: [DueWorkRegistry],
})
export class DueWorkModule {}
