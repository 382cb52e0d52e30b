import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { killServer, scratchDatabase, ServerProcess, startServer } from './support/server-process';

const run = promisify(execFile);

/** The README's tour as it is written: its `sh` blocks, between the tour's heading and the next `##`. */
function tour(): { define: string; calls: string[] } {
  const readme = readFileSync(resolve(__dirname, '..', 'README.md'), 'utf8');
  const start = readme.indexOf('## A short tour of the API');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1].replace(/\\\n/g, ' ').split('\n'))
    .map((line) => line.trim());
  return {
    define: lines.filter((line) => /^(export [A-Z_]+=|API=)/.test(line)).join('\n'),
    calls: lines.filter((line) => line.startsWith('$API')),
  };
}

/**
 * README "A short tour of the API", run as a script: the real server (src/main.ts) on a
 * fresh database with the settings the tour names, then every `$API` call of the tour in
 * order through bash and curl, as a reader pastes them. Each must answer a success envelope.
 * Other lines (the billing CLI) are not API calls and are left out.
 */
describe('README tour', () => {
  let server: ServerProcess | undefined;
  let drop: () => Promise<void> = () => Promise.resolve();

  afterAll(async () => {
    await killServer(server);
    await drop();
  });

  it('runs top to bottom on a fresh server, every call a success', async () => {
    const { define, calls } = tour();
    expect(define).toContain('API=');
    expect(calls.length).toBeGreaterThan(30);
    const database = await scratchDatabase();
    drop = () => database.drop();
    // `export NAME=value ...`: the settings the tour starts its server with.
    const settings = Object.fromEntries(
      [...define.matchAll(/^export (.*)$/gm)]
        .flatMap(([, assignments]) => assignments.trim().split(/\s+/))
        .map((assignment) => assignment.split('=', 2) as [string, string]),
    );
    // A fresh `npm start` with the tour's settings: default rate limit and billing timer.
    server = await startServer({
      ...database.env,
      RATE_LIMIT_PER_MINUTE: '250',
      BILLING_CRON: '*/5 * * * *',
      ...settings,
    });
    const script = define.replace(/http:\/\/localhost:3000/g, server.url);
    const failures: string[] = [];
    for (const call of calls) {
      const { stdout } = await run('bash', ['-c', `${script}\n${call}`]);
      let envelope: { code?: number; status?: string; message?: string; response?: unknown } = {};
      try {
        envelope = JSON.parse(stdout) as typeof envelope;
      } catch {
        failures.push(`${call}\n  -> not JSON: ${stdout.slice(0, 200)}`);
        continue;
      }
      // A batch (usage ?action=bulk) answers an envelope per entry: each must succeed too.
      const inner = Array.isArray(envelope.response) ? (envelope.response as (typeof envelope)[]) : [];
      for (const answer of [
        envelope,
        ...inner.filter((entry) => entry && typeof entry === 'object' && 'code' in entry),
      ]) {
        if (answer.status !== 'OK') failures.push(`${call}\n  -> ${answer.code} ${answer.message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
