import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import { AcquiringCommand, HostedPayBody, HostedSessionPayload, HostedSessionView, HostedThreeDsPayload } from '@paygrid/contracts';
import { ApiError } from '@paygrid/platform';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { Public } from '../auth/route-policy.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { CardSealer } from './card-sealer';
import { checkoutPage, errorPage, threeDsPage } from './hosted-pages.html';

/**
 * The hosted pages (architecture: the gateway serves them) and the JSON routes their script calls.
 * No merchant token: the intent's client_secret authenticates, the acquiring service checks it (and its
 * 60-minute validity) and answers only what a shopper may see. A card typed on the page is checked and
 * sealed here exactly like one sent through the API. Public routes: no idempotency key (a repeated
 * payment is refused by the intent's state table instead).
 */
@Controller('hosted')
@Public()
@ApiTags('Hosted pages')
export class HostedPagesController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly sealer: CardSealer,
  ) {}

  @Get('checkout')
  @ApiRoute({ kind: 'hosted', summary: 'The checkout page', query: HostedSessionPayload, html: true })
  async checkout(@Req() request: FastifyRequest, @Query() query: HostedSessionPayload, @Res() reply: FastifyReply) {
    await this.render(request, reply, query.client_secret, checkoutPage);
  }

  @Get('three_ds')
  @ApiRoute({ kind: 'hosted', summary: 'The 3-D Secure challenge page', query: HostedSessionPayload, html: true })
  async threeDs(@Req() request: FastifyRequest, @Query() query: HostedSessionPayload, @Res() reply: FastifyReply) {
    await this.render(request, reply, query.client_secret, threeDsPage);
  }

  @Post('checkout/pay')
  @HttpCode(200)
  @ApiRoute({
    kind: 'hosted',
    summary: 'Pay from the checkout page',
    description: 'With a new card (checked and sealed like one sent through the API) or a saved card of the customer.',
    body: HostedPayBody,
    result: AcquiringCommand.hostedConfirm.type,
  })
  pay(@Req() request: FastifyRequest, @Body() { card, ...body }: HostedPayBody) {
    const payment_method = card && { card: this.sealer.seal(card, 'card') };
    return this.services.execute(request, AcquiringCommand.hostedConfirm, { ...body, payment_method });
  }

  @Post('three_ds')
  @HttpCode(200)
  @ApiRoute({
    kind: 'hosted',
    summary: 'Answer the 3-D Secure challenge',
    description: 'The sandbox challenge: the shopper approves or fails the attempt.',
    body: HostedThreeDsPayload,
    result: AcquiringCommand.hostedThreeDs.type,
  })
  complete(@Req() request: FastifyRequest, @Body() body: HostedThreeDsPayload) {
    return this.services.execute(request, AcquiringCommand.hostedThreeDs, body);
  }

  private async render(
    request: FastifyRequest,
    reply: FastifyReply,
    clientSecret: string,
    page: (session: HostedSessionView, clientSecret: string, nonce: string) => string,
  ): Promise<void> {
    const nonce = randomBytes(16).toString('base64');
    void reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'nonce-${nonce}' 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      );
    try {
      const session = await this.services.execute(request, AcquiringCommand.hostedSession, { client_secret: clientSecret });
      await reply.status(200).send(page(session, clientSecret, nonce));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await reply.status(error.status).send(errorPage(error.message, nonce));
    }
  }
}
