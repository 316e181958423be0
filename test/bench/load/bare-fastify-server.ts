// The same-run baseline for v2 PUT: a bare fastify handler on the same route, in its own process. Prints its port.
import Fastify from 'fastify';

const bare = Fastify({ logger: false });
bare.put('/api/core/v2/namespaces/:ns/events/:entity/:check', (_request, reply) => reply.code(201).send());
const address = await bare.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${new URL(address).port}\n`);
