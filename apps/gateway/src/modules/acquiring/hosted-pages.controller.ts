import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import { AcquiringCommands, HostedSessionView } from '@paygrid/contracts';
import { ApiError, CommandBus } from '@paygrid/platform';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { Public } from '../auth/route-policy.decorator';
import { COMMAND_BUS } from '../commands/command-bus.provider';
import { CardSealer } from './card-sealer';
import { ClientSecretQuery, HostedPayBody, HostedThreeDsBody } from './dto/acquiring.dto';
import { checkoutPage, errorPage, threeDsPage } from './hosted-pages.html';

/**
 * The hosted pages (architecture: the gateway serves them) and the JSON routes their script calls.
 * No merchant token: the intent's client_secret authenticates, the acquiring service checks it (and its
 * 60-minute validity) and answers only what a shopper may see. A card typed on the page is checked and
 * sealed here exactly like one sent through the API.
 */
@Controller('hosted')
@Public()
@ApiTags('Hosted pages')
export class HostedPagesController {
  constructor(
    @Inject(COMMAND_BUS) private readonly bus: CommandBus,
    private readonly sealer: CardSealer,
  ) {}

  @Get('checkout')
  @ApiRoute({ kind: 'hosted', summary: 'The checkout page', query: ClientSecretQuery, html: true })
  async checkout(@Query() query: ClientSecretQuery, @Res() reply: FastifyReply) {
    await this.render(reply, query.client_secret, checkoutPage);
  }

  @Get('three_ds')
  @ApiRoute({ kind: 'hosted', summary: 'The 3-D Secure challenge page', query: ClientSecretQuery, html: true })
  async threeDs(@Query() query: ClientSecretQuery, @Res() reply: FastifyReply) {
    await this.render(reply, query.client_secret, threeDsPage);
  }

  @Post('checkout/pay')
  @HttpCode(200)
  @ApiRoute({
    kind: 'hosted',
    summary: 'Pay from the checkout page',
    description: 'With a new card (checked and sealed like one sent through the API) or a saved card of the customer.',
    body: HostedPayBody,
    result: AcquiringCommands.hostedConfirm,
  })
  pay(@Body() body: HostedPayBody): Promise<HostedSessionView> {
    return this.bus.send<HostedSessionView>('acquiring', AcquiringCommands.hostedConfirm, {
      client_secret: body.client_secret,
      saved_card_id: body.saved_card_id,
      payment_method: body.card ? { card: this.sealer.seal(body.card, 'card') } : undefined,
    }, { actor: null, key: body.client_secret.split('_secret_')[0] });
  }

  @Post('three_ds')
  @HttpCode(200)
  @ApiRoute({
    kind: 'hosted',
    summary: 'Answer the 3-D Secure challenge',
    description: 'The sandbox challenge: the shopper approves or fails the attempt.',
    body: HostedThreeDsBody,
    result: AcquiringCommands.hostedThreeDs,
  })
  complete(@Body() body: HostedThreeDsBody): Promise<HostedSessionView> {
    return this.bus.send<HostedSessionView>(
      'acquiring',
      AcquiringCommands.hostedThreeDs,
      { client_secret: body.client_secret, outcome: body.outcome },
      { actor: null, key: body.client_secret.split('_secret_')[0] },
    );
  }

  private async render(
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
      const session = await this.bus.send<HostedSessionView>(
        'acquiring',
        AcquiringCommands.hostedSession,
        { client_secret: clientSecret },
        { actor: null },
      );
      await reply.status(200).send(page(session, clientSecret, nonce));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await reply.status(error.status).send(errorPage(error.message, nonce));
    }
  }
}
