// `npm run test:cost`: where the last `npm test` spent its time, from .test-output/ (stages.json, written by
// scripts/test.mjs, and each stage's vitest JSON report): wall and CPU time by stage, PostgreSQL's CPU time,
// and the ten slowest files. CPU seconds are read from /proc while the stages run (scripts/cpu-sampler.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('..', import.meta.url).pathname;

function seconds(value) {
  return value === undefined ? 'n/a' : `${Math.round(value)} s`;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The files of a stage's report with their time from start to end, the longest first. */
function fileTimes(stage, report) {
  return (report?.testResults ?? []).map((file) => ({
    stage,
    file: relative(ROOT, file.name),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults?.length ?? 0,
  }));
}

export function printCost(outputDir) {
  const run = readJson(join(outputDir, 'stages.json'));
  if (!run) {
    console.log(`no stages.json in ${outputDir}: run npm test first`);
    return false;
  }
  const lines = [
    '',
    '[npm test] where the time went',
    '| stage | started after | wall | CPU | files | tests | exit |',
    '|---|---|---|---|---|---|---|',
  ];
  const files = [];
  let cpuTotal = 0;
  for (const stage of run.stages) {
    const report = readJson(join(outputDir, `${stage.name}.json`));
    files.push(...fileTimes(stage.name, report));
    cpuTotal += stage.cpuSeconds ?? 0;
    lines.push(
      `| ${stage.name} (${stage.projects.join(', ')}) | ${seconds(stage.startedAfterSeconds)} | ${seconds(stage.wallSeconds)} | ${seconds(stage.cpuSeconds)} | ${report?.testResults?.length ?? '?'} | ${report?.numTotalTests ?? '?'} | ${stage.exitCode} |`,
    );
  }
  lines.push(`| all | | ${seconds(run.wallSeconds)} | ${seconds(cpuTotal)} | | | |`);
  if (run.postgresCpuSeconds !== undefined) {
    lines.push(`PostgreSQL server (not in the stages' CPU): ${seconds(run.postgresCpuSeconds)} CPU`);
  }
  lines.push(
    '',
    'The ten slowest files (start to end; a file of the server stage may be there once per database):',
  );
  for (const file of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    lines.push(
      `  ${file.seconds.toFixed(1).padStart(7)} s  ${file.stage.padEnd(8)} ${file.file} (${file.tests} tests)`,
    );
  }
  console.log(lines.join('\n'));
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2] ?? join(ROOT, '.test-output');
  if (!existsSync(dir) || !printCost(dir)) process.exitCode = 1;
}
