import cluster from 'node:cluster';
import { loadConfig } from './config';
import { serve, superviseWorkers } from './server-process';

const config = loadConfig();

if (config.processes > 1 && !config.databaseUrl) {
  console.warn(
    '  WEB_CONCURRENCY above 1 needs DATABASE_URL: running one server process on the embedded PGlite.',
  );
}
const processes = config.databaseUrl ? config.processes : 1;

if (processes > 1 && cluster.isPrimary) await superviseWorkers(config, processes);
else await serve(config, { prepare: processes === 1 });
