import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DueWorkRegistry } from './due-work-registry';
import { DueWorkScheduler } from './due-work-scheduler';
import { NightlyTasks } from './nightly-tasks';

/**
 * The due-work registry and the nightly tasks, which find the `@DueWork()` providers and
 * `@NightlyTask` methods of every module at start, and the scheduler that triggers the
 * work through @nestjs/schedule.
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [DueWorkRegistry, DueWorkScheduler, NightlyTasks],
  exports: [DueWorkRegistry, NightlyTasks],
})
export class DueWorkModule {}
