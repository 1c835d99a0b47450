import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import {
  ActivateCardBody,
  AssignCardBody,
  BulkCreateCardsPayload,
  CardAmountBody,
  CreateCardholderPayload,
  CreateCardPayload,
  ElevateLimitBody,
  IssuingCommand,
  ListCardArtsPayload,
  ListCardholdersPayload,
  ListCardsQuery,
  ListProductsPayload,
  ResetPinBody,
  SENSITIVE_CARD_DETAILS_PERMISSION,
  UpdateCardBody,
  UpdateCardholderBody,
  UpdateCardStatusBody,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { RequiresPermission } from '../auth/route-policy.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { IssuingSecretsSealer } from './issuing-secrets';
import { SensitiveCardRateLimit } from './sensitive-card.rate-limit';

/**
 * The issuing routes (wire-compat §11.1–11.9, docs/issuing.md): one line each onto the issuing command family.
 * The body and query classes are the commands' own (libs/contracts); where a secret is in the request (a card
 * number, PIN or activation code) it is sealed before it leaves the gateway, and the sensitive details are
 * opened only for their response. Another account's object answers exactly like a missing one.
 */
class IdParam {
  @IsUUID() id!: string;
}

@Controller('v1/issuing')
@ApiTags('Issuing')
export class IssuingController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly secrets: IssuingSecretsSealer,
  ) {}

  @Get('products')
  @ApiRoute({
    kind: 'query',
    summary: 'List card products',
    query: ListProductsPayload,
    result: 'issuing.products.list',
  })
  listProducts(@Req() request: AuthenticatedRequest, @Query() query: ListProductsPayload) {
    return this.services.execute(request, IssuingCommand.listProducts, query);
  }

  @Post('cardholders') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a cardholder',
    description: 'KYC runs asynchronously: PENDING, then SUCCESS or FAILED (sandbox: an email containing kyc_fail fails).',
    body: CreateCardholderPayload,
    result: 'issuing.cardholders.create',
  })
  createCardholder(@Req() request: AuthenticatedRequest, @Body() body: CreateCardholderPayload) {
    return this.services.execute(request, IssuingCommand.createCardholder, body);
  }

  @Get('cardholders')
  @ApiRoute({
    kind: 'query',
    summary: 'List cardholders',
    query: ListCardholdersPayload,
    result: 'issuing.cardholders.list',
  })
  listCardholders(@Req() request: AuthenticatedRequest, @Query() query: ListCardholdersPayload) {
    return this.services.execute(request, IssuingCommand.listCardholders, query);
  }

  @Get('cardholders/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a cardholder',
    params: IdParam,
    result: 'issuing.cardholders.retrieve',
  })
  retrieveCardholder(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.retrieveCardholder, { cardholder_id: params.id });
  }

  @Post('cardholders/:id') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update a cardholder',
    description: 'KYC fields are locked while a review is pending; changing them starts a new review.',
    params: IdParam,
    body: UpdateCardholderBody,
    result: 'issuing.cardholders.update',
  })
  updateCardholder(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: UpdateCardholderBody) {
    return this.services.execute(request, IssuingCommand.updateCardholder, { ...body, cardholder_id: params.id });
  }

  @Post('cardholders/:id/delete') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Delete a cardholder',
    params: IdParam,
    result: 'issuing.cardholders.delete',
  })
  deleteCardholder(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.deleteCardholder, { cardholder_id: params.id });
  }

  @Post('cards') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a card',
    description: 'A CARD_CREATE order: virtual cards become ACTIVE shortly after, physical ones stay PENDING until activated.',
    body: CreateCardPayload,
    result: 'issuing.cards.create',
  })
  createCard(@Req() request: AuthenticatedRequest, @Body() body: CreateCardPayload) {
    return this.services.execute(request, IssuingCommand.createCard, body);
  }

  @Get('cards')
  @ApiRoute({
    kind: 'query',
    summary: 'List cards',
    query: ListCardsQuery,
    result: 'issuing.cards.list',
  })
  listCards(@Req() request: AuthenticatedRequest, @Query() query: ListCardsQuery) {
    const { card_number: cardNumber, ...filters } = query;
    return this.services.execute(request, IssuingCommand.listCards, {
      ...filters,
      ...(cardNumber === undefined ? {} : { sealed_card_number: this.secrets.seal({ card_number: cardNumber.replace(/[ -]/g, '') }) }),
    });
  }

  @Post('cards/activate') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Activate a physical card',
    description: 'The activation code must match the one on the card carrier; the PIN is stored only as a slow hash.',
    body: ActivateCardBody,
    result: 'issuing.cards.activate',
  })
  activateCard(@Req() request: AuthenticatedRequest, @Body() body: ActivateCardBody) {
    const { activation_code, pin, ...rest } = body;
    return this.services.execute(request, IssuingCommand.activateCard, { ...rest, sealed: this.secrets.seal({ activation_code, pin }) });
  }

  @Post('cards/assign') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Assign a pool card to a cardholder',
    body: AssignCardBody,
    result: 'issuing.cards.assign',
  })
  assignCard(@Req() request: AuthenticatedRequest, @Body() body: AssignCardBody) {
    const { card_number, ...rest } = body;
    return this.services.execute(request, IssuingCommand.assignCard, { ...rest, sealed_card_number: this.secrets.seal({ card_number }) });
  }

  @Post('cards/bulk_create') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Bulk-create unassigned virtual cards',
    body: BulkCreateCardsPayload,
    result: 'issuing.cards.bulk_create',
  })
  bulkCreateCards(@Req() request: AuthenticatedRequest, @Body() body: BulkCreateCardsPayload) {
    return this.services.execute(request, IssuingCommand.bulkCreateCards, body);
  }

  @Get('cards/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a card',
    params: IdParam,
    result: 'issuing.cards.retrieve',
  })
  retrieveCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.retrieveCard, { card_id: params.id });
  }

  @Post('cards/:id') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update a card',
    description: 'A CARD_UPDATE order; card.update.succeeded or .failed announces the outcome.',
    params: IdParam,
    body: UpdateCardBody,
    result: 'issuing.cards.update',
  })
  updateCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: UpdateCardBody) {
    return this.services.execute(request, IssuingCommand.updateCard, { ...body, card_id: params.id });
  }

  @Post('cards/:id/status') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update the status of a card',
    params: IdParam,
    body: UpdateCardStatusBody,
    result: 'issuing.cards.update_status',
  })
  updateCardStatus(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: UpdateCardStatusBody) {
    return this.services.execute(request, IssuingCommand.updateCardStatus, { ...body, card_id: params.id });
  }

  @Get('cards/:id/secure')
  @RequiresPermission(SENSITIVE_CARD_DETAILS_PERMISSION)
  @UseGuards(SensitiveCardRateLimit)
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve sensitive card details',
    description: 'Full number, CVV and expiry. Needs the sensitive_card_details permission; at most 10 a minute per card (HTTP 429).',
    params: IdParam,
    response: 'SecureDetailsView',
  })
  async retrieveSecureDetails(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.secrets.openSecureDetails(await this.services.execute(request, IssuingCommand.retrieveSecureDetails, { card_id: params.id }));
  }

  @Post('cards/:id/token') @HttpCode(200)
  @RequiresPermission(SENSITIVE_CARD_DETAILS_PERMISSION)
  @UseGuards(SensitiveCardRateLimit)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a PAN token',
    description: 'Needs the sensitive_card_details permission; at most 10 a minute per card (HTTP 429).',
    params: IdParam,
    result: 'issuing.cards.pan_token',
  })
  createPanToken(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.createPanToken, { card_id: params.id });
  }

  @Post('cards/:id/recharge') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Recharge a card',
    params: IdParam,
    body: CardAmountBody,
    result: 'issuing.cards.recharge',
  })
  rechargeCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: CardAmountBody) {
    return this.services.execute(request, IssuingCommand.rechargeCard, { ...body, card_id: params.id });
  }

  @Post('cards/:id/withdraw') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Withdraw from a card',
    params: IdParam,
    body: CardAmountBody,
    result: 'issuing.cards.withdraw',
  })
  withdrawCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: CardAmountBody) {
    return this.services.execute(request, IssuingCommand.withdrawCard, { ...body, card_id: params.id });
  }

  @Post('cards/:id/reset_pin') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Reset the PIN of a physical card',
    params: IdParam,
    body: ResetPinBody,
    result: 'issuing.cards.reset_pin',
  })
  resetPin(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: ResetPinBody) {
    return this.services.execute(request, IssuingCommand.resetPin, { card_id: params.id, sealed: this.secrets.seal({ pin: body.pin }) });
  }

  @Post('cards/:id/elevate_limit') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Elevate the per-transaction limit',
    params: IdParam,
    body: ElevateLimitBody,
    result: 'issuing.cards.elevate_limit',
  })
  elevateLimit(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: ElevateLimitBody) {
    return this.services.execute(request, IssuingCommand.elevateLimit, { ...body, card_id: params.id });
  }

  @Post('cards/:id/network_protection/enrol') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Enrol a card in network protection',
    params: IdParam,
    result: 'issuing.cards.network_protection.enrol',
  })
  enrolNetworkProtection(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.enrolNetworkProtection, { card_id: params.id });
  }

  @Post('cards/:id/network_protection/remove') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Remove a card from network protection',
    params: IdParam,
    result: 'issuing.cards.network_protection.remove',
  })
  removeNetworkProtection(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.removeNetworkProtection, { card_id: params.id });
  }

  @Get('card_orders/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a card order',
    params: IdParam,
    result: 'issuing.card_orders.retrieve',
  })
  retrieveCardOrder(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.retrieveCardOrder, { card_order_id: params.id });
  }

  @Get('card_arts')
  @ApiRoute({
    kind: 'query',
    summary: 'List card arts',
    query: ListCardArtsPayload,
    result: 'issuing.card_arts.list',
  })
  listCardArts(@Req() request: AuthenticatedRequest, @Query() query: ListCardArtsPayload) {
    return this.services.execute(request, IssuingCommand.listCardArts, query);
  }

  @Post('card_arts/:id/default') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Set the default card art',
    params: IdParam,
    result: 'issuing.card_arts.set_default',
  })
  setDefaultCardArt(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.setDefaultCardArt, { card_art_id: params.id });
  }
}
