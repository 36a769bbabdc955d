// The yardstick: a bare Fastify hello-world on the same machine, in its own process like Shuzhi.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
process.send?.({ port: app.server.address().port });
