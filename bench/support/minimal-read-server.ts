// The reads bench's reference (issue 32): the bare minimum an HTTP read of an organization needs, a Fastify
// server with a pg pool that answers `GET /organization/:id` with one `select` of the row, as JSON. No
// authentication, no access check, no log. Run as a process of its own (so that its CPU is its own):
// DATABASE_URL, PORT; it prints `listening` once it does.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20, options: '-c jit=off' });
pool.on('error', () => {});
const app = Fastify();
app.get<{ Params: { id: string } }>('/organization/:id', async (request, reply) => {
  const { rows } = await pool.query('select * from organizations where id = $1', [request.params.id]);
  if (!rows[0]) return reply.status(404).send({ error: 'not_found' });
  return rows[0];
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
