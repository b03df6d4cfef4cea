import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../contracts/common';
import { keysDocumentSchema, receiptProofSchema } from '../contracts/receipts';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { CHECKPOINT_PERIOD_SECONDS, receiptProof } from './proofs';
import { publishedKeys } from './signer';

/** What anyone needs to check the log's signatures and a bidder's receipt: public, no sign-in. */
export const integrityRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/.well-known/provenance-keys.json',
    {
      schema: {
        tags: ['verifiable history'],
        summary: 'The keys that sign checkpoints and receipts, as the log records them',
        description:
          'Ed25519; publicKey is the raw 32-byte key, base64url; keyId is ed25519- and the first 16 hex characters of its SHA-256. ' +
          'A retired key signs nothing more; what it signed before still verifies. Rotations are in the log (stream signing_keys-provenance).',
        response: { 200: keysDocumentSchema },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=60');
      return { keys: await publishedKeys(deps.eventStore) };
    },
  );

  app.get(
    '/api/public/receipts/:bidId/proof',
    {
      schema: {
        tags: ['verifiable history'],
        summary: "Prove a receipt's bid is in the log: an RFC 6962 inclusion proof against the first signed checkpoint covering it",
        description:
          "The receipt's hash is leaf number `revision` of the checkpoint's Merkle tree for the auction's stream; the audit path leads to its " +
          'rootHash, which the checkpoint signs. Public data only: other events appear as hashes, never their amounts or bidders. ' +
          `404 "Bid not found"; 409 with Retry-After while no checkpoint covers the bid yet (one is signed at least every ${CHECKPOINT_PERIOD_SECONDS} s while bidding runs, and when the auction closes).`,
        params: z.object({ bidId: z.uuid() }),
        querystring: z.object({ auctionId: z.uuid().optional().describe("The receipt's auctionId: finds a bid placed a moment ago too") }),
        response: { 200: receiptProofSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const proof = await receiptProof(deps, request.params.bidId, request.query.auctionId);
      if (proof === null) {
        void reply.header('retry-after', String(CHECKPOINT_PERIOD_SECONDS));
        throw new HttpError(409, `No signed checkpoint covers this bid yet: one is signed at least every ${CHECKPOINT_PERIOD_SECONDS} seconds while the auction runs. Try again shortly.`, 'NOT_YET_CHECKPOINTED');
      }
      return proof;
    },
  );
};
