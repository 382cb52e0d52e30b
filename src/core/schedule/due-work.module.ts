import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DueWorkRegistry } from './due-work-registry';
import { DueWorkScheduler } from './due-work-scheduler';
import { NightlyTasks } from './nightly-tasks';

/**
 * The due-work registry, global so any feature module can register its timed work (and
 * its nightly tasks), and the scheduler that triggers it through @nestjs/schedule.
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [DueWorkRegistry, DueWorkScheduler, NightlyTasks],
  exports: [DueWorkRegistry, NightlyTasks],
})
export class DueWorkModule {}
