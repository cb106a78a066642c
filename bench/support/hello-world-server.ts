// The HTTP ceiling of the benchmarks: a bare Fastify hello-world on PORT, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(
  () => process.stdout.write('ready\n'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
