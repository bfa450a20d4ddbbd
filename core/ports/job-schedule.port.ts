/**
 * The schedule of background jobs, shared by every replica through the database: a run is claimed by moving the
 * job's next run forward in one statement, so one replica runs it per interval, and a restart neither skips a due
 * run (it is still due) nor repeats one (it was moved on).
 */
export interface JobSchedulePort {
  /** True when this caller claimed a due run of `name` (it is then due again `intervalMs` after `now`). */
  claim(name: string, now: Date, intervalMs: number): Promise<boolean>;
  /** Records how the claimed run ended. */
  finish(name: string, now: Date, result: string): Promise<void>;
  /** When the job is next due (null: never claimed yet). */
  nextRun(name: string): Promise<Date | null>;
}
