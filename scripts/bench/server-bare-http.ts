/**
 * The HTTP ceiling of the hot auction (server-hot-auction.ts), in a process of its own: bare
 * Fastify with @fastify/jwt answering POST /api/bids as fast as it can, with nothing behind it (no
 * database, no engine, no logging). It verifies the bearer token, parses the body and answers 201
 * with a body the size of the product's. What a bid costs the product beyond this is its own work.
 * Tells its parent its port and a token it accepts over IPC.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import jwt from '@fastify/jwt';
import Fastify from 'fastify';
import type { PlacedBid } from '../../api/contracts/bids';

const app = Fastify({ logger: false });
await app.register(jwt, { secret: randomBytes(32).toString('hex') });
app.post('/api/bids', async (request, reply) => {
  await request.jwtVerify();
  const { auctionId, amount } = request.body as { auctionId: string; amount: number };
  const now = new Date().toISOString();
  const bidderId = (request.user as { sub: string }).sub;
  const answer: PlacedBid = {
    id: randomUUID(),
    auctionId,
    bidderId,
    amount,
    maxAmount: null,
    placedAt: now,
    status: 'ACCEPTED',
    kind: 'BID',
    auction: { currentPrice: amount, currentLeaderId: bidderId, status: 'ACTIVE', minimumBid: amount + 1, endsAt: now },
    // As long as a real receipt, and as costly to write; nothing signs it.
    receipt: {
      format: 'provenance.bid-receipt.v2',
      auctionId,
      bidId: randomUUID(),
      streamId: `auction-${auctionId}`,
      revision: 1000,
      amount,
      placedAt: now,
      hash: randomBytes(32).toString('hex'),
      previousHash: randomBytes(32).toString('hex'),
      keyId: `ed25519-${randomBytes(8).toString('hex')}`,
      // A hot auction's receipts are signed some 16 to a batch.
      batch: { size: 16, index: 5, auditPath: Array.from({ length: 4 }, () => randomBytes(32).toString('hex')) },
      signature: randomBytes(64).toString('base64url'),
    },
  };
  return reply.code(201).send(answer);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send!({ port: typeof address === 'object' && address ? address.port : 0, token: app.jwt.sign({ sub: randomUUID(), roles: ['BUYER'], sv: 0 }) });
// The benchmark ended (or died): nothing is left to serve.
process.on('disconnect', () => process.exit(0));
