import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { sendApiError, Errors } from '@paygrid/platform';
import { DeliveryQueue } from '../sending/delivery-queue';
import { sameSecret, tokenOf } from './ops-token.guard';

/**
 * Bull Board (the queue dashboard) at /ops/board on the dispatcher's own port, behind OPS_TOKEN:
 * open `/ops/board?token=<OPS_TOKEN>` once; the token is then kept in an HttpOnly cookie scoped to
 * /ops so the UI's own requests pass. Not mounted at all when OPS_TOKEN is empty.
 */
export const BULL_BOARD_PATH = '/ops/board';

export async function mountBullBoard(app: NestFastifyApplication, opsToken: string): Promise<void> {
  if (opsToken === '') return;
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(app.get(DeliveryQueue).queue, { readOnlyMode: false })], serverAdapter });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(
    async (scope) => {
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const given = tokenOf(request);
        if (given === undefined || !sameSecret(given, opsToken)) {
          sendApiError(reply, Errors.unauthorized('a valid ops token is required'));
          return reply;
        }
        void reply.header('set-cookie', `paygrid_ops=${encodeURIComponent(given)}; Path=/ops; HttpOnly; SameSite=Strict`);
        return undefined;
      });
      await scope.register(serverAdapter.registerPlugin());
    },
    { prefix: BULL_BOARD_PATH },
  );
}
