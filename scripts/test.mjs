// `npm test`: every suite, in stages (docs/TESTING.md):
//   processes  the server files that start server processes of their own and stop or kill them under load
//              (`…:isolated`), first and alone: what they check depends on the machine not being swamped
//   then at once, so that both cores work:
//   server     the domain and web modules and the API suite (PGlite; PostgreSQL too when TEST_DATABASE_URL is set)
//   browser    the browser tests against one real server (they build the web app and seed it first)
// Each stage's output goes to .test-output/<stage>.log and is printed whole when the stage ends; its JSON
// report to .test-output/<stage>.json. At the end: each stage's wall and CPU time, PostgreSQL's CPU time and
// the slowest files (scripts/test-cost.mjs prints the same again), and the exit code says whether all passed.
//
// With arguments, `npm test -- <vitest arguments>` is plain `vitest run <arguments>` (one file, one project).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCpuSampler } from './cpu-sampler.mjs';
import { printCost } from './test-cost.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const OUTPUT = join(ROOT, '.test-output');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

// Phases run one after the other; the stages of a phase at once. A project a run does not have (server:postgres
// without TEST_DATABASE_URL) is left out by vitest.
const PHASES = [
  [{ name: 'processes', projects: ['server:pglite:isolated', 'server:postgres:isolated'] }],
  [
    { name: 'server', projects: ['domain', 'web', 'server:pglite', 'server:postgres'] },
    { name: 'browser', projects: ['e2e'] },
  ],
];
const STAGES = PHASES.flat();

const args = process.argv.slice(2);
if (args.length > 0) {
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.exitCode = await runStages();
}

async function runStages() {
  mkdirSync(OUTPUT, { recursive: true });
  for (const stage of STAGES) {
    rmSync(join(OUTPUT, `${stage.name}.json`), { force: true });
  }
  const sampler = startCpuSampler();
  const started = Date.now();
  const progress = setInterval(() => {
    const running = STAGES.filter((stage) => stage.startedAt && stage.wallSeconds === undefined).map(
      (stage) => stage.name,
    );
    console.log(`[npm test] ${minutes(Date.now() - started)}: ${running.join(' and ')} still running`);
  }, 120_000);

  const results = [];
  for (const phase of PHASES) {
    results.push(...(await Promise.all(phase.map((stage) => runStage(stage, sampler, started)))));
  }
  clearInterval(progress);
  sampler.sample();
  sampler.stop();

  const report = {
    wallSeconds: (Date.now() - started) / 1000,
    stages: results,
    postgresCpuSeconds: process.env.TEST_DATABASE_URL ? sampler.cpuSeconds('postgres') : undefined,
  };
  writeFileSync(join(OUTPUT, 'stages.json'), `${JSON.stringify(report, null, 2)}\n`);
  printCost(OUTPUT);
  return results.every((result) => result.exitCode === 0) ? 0 : 1;
}

function runStage(stage, sampler, started) {
  stage.startedAt = Date.now();
  return new Promise((resolve) => {
    const log = createWriteStream(join(OUTPUT, `${stage.name}.log`));
    const projectArgs = stage.projects.flatMap((project) => ['--project', project]);
    const child = spawn(
      process.execPath,
      [
        VITEST,
        'run',
        ...projectArgs,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(OUTPUT, `${stage.name}.json`)}`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    sampler.watch(stage.name, child.pid);
    console.log(
      `[npm test] ${stage.name} stage started (${stage.projects.join(', ')}); its output: .test-output/${stage.name}.log`,
    );
    child.on('exit', (code, signal) => {
      sampler.sample();
      stage.wallSeconds = (Date.now() - stage.startedAt) / 1000;
      log.end(() => {
        console.log(
          `\n[npm test] ===== ${stage.name} stage, ended after ${minutes(Date.now() - started)} =====`,
        );
        process.stdout.write(readFileSync(join(OUTPUT, `${stage.name}.log`), 'utf8'));
        resolve({
          name: stage.name,
          projects: stage.projects,
          exitCode: code ?? (signal ? 1 : 0),
          startedAfterSeconds: (stage.startedAt - started) / 1000,
          wallSeconds: stage.wallSeconds,
          cpuSeconds: sampler.cpuSeconds(stage.name),
        });
      });
    });
  });
}

function minutes(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}
