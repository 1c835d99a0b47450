import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
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
export class IssuingController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly secrets: IssuingSecretsSealer,
  ) {}

  @Get('products')
  listProducts(@Req() request: AuthenticatedRequest, @Query() query: ListProductsPayload) {
    return this.services.execute(request, IssuingCommand.listProducts, query);
  }

  @Post('cardholders') @HttpCode(200)
  createCardholder(@Req() request: AuthenticatedRequest, @Body() body: CreateCardholderPayload) {
    return this.services.execute(request, IssuingCommand.createCardholder, body);
  }

  @Get('cardholders')
  listCardholders(@Req() request: AuthenticatedRequest, @Query() query: ListCardholdersPayload) {
    return this.services.execute(request, IssuingCommand.listCardholders, query);
  }

  @Get('cardholders/:id')
  retrieveCardholder(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.retrieveCardholder, { cardholder_id: params.id });
  }

  @Post('cardholders/:id') @HttpCode(200)
  updateCardholder(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: UpdateCardholderBody) {
    return this.services.execute(request, IssuingCommand.updateCardholder, { ...body, cardholder_id: params.id });
  }

  @Post('cardholders/:id/delete') @HttpCode(200)
  deleteCardholder(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.deleteCardholder, { cardholder_id: params.id });
  }

  @Post('cards') @HttpCode(200)
  createCard(@Req() request: AuthenticatedRequest, @Body() body: CreateCardPayload) {
    return this.services.execute(request, IssuingCommand.createCard, body);
  }

  @Get('cards')
  listCards(@Req() request: AuthenticatedRequest, @Query() query: ListCardsQuery) {
    const { card_number: cardNumber, ...filters } = query;
    return this.services.execute(request, IssuingCommand.listCards, {
      ...filters,
      ...(cardNumber === undefined ? {} : { sealed_card_number: this.secrets.seal({ card_number: cardNumber.replace(/[ -]/g, '') }) }),
    });
  }

  @Post('cards/activate') @HttpCode(200)
  activateCard(@Req() request: AuthenticatedRequest, @Body() body: ActivateCardBody) {
    const { activation_code, pin, ...rest } = body;
    return this.services.execute(request, IssuingCommand.activateCard, { ...rest, sealed: this.secrets.seal({ activation_code, pin }) });
  }

  @Post('cards/assign') @HttpCode(200)
  assignCard(@Req() request: AuthenticatedRequest, @Body() body: AssignCardBody) {
    const { card_number, ...rest } = body;
    return this.services.execute(request, IssuingCommand.assignCard, { ...rest, sealed_card_number: this.secrets.seal({ card_number }) });
  }

  @Post('cards/bulk_create') @HttpCode(200)
  bulkCreateCards(@Req() request: AuthenticatedRequest, @Body() body: BulkCreateCardsPayload) {
    return this.services.execute(request, IssuingCommand.bulkCreateCards, body);
  }

  @Get('cards/:id')
  retrieveCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.retrieveCard, { card_id: params.id });
  }

  @Post('cards/:id') @HttpCode(200)
  updateCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: UpdateCardBody) {
    return this.services.execute(request, IssuingCommand.updateCard, { ...body, card_id: params.id });
  }

  @Post('cards/:id/status') @HttpCode(200)
  updateCardStatus(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: UpdateCardStatusBody) {
    return this.services.execute(request, IssuingCommand.updateCardStatus, { ...body, card_id: params.id });
  }

  @Get('cards/:id/secure')
  @RequiresPermission(SENSITIVE_CARD_DETAILS_PERMISSION)
  @UseGuards(SensitiveCardRateLimit)
  async retrieveSecureDetails(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.secrets.openSecureDetails(await this.services.execute(request, IssuingCommand.retrieveSecureDetails, { card_id: params.id }));
  }

  @Post('cards/:id/token') @HttpCode(200)
  @RequiresPermission(SENSITIVE_CARD_DETAILS_PERMISSION)
  @UseGuards(SensitiveCardRateLimit)
  createPanToken(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.createPanToken, { card_id: params.id });
  }

  @Post('cards/:id/recharge') @HttpCode(200)
  rechargeCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: CardAmountBody) {
    return this.services.execute(request, IssuingCommand.rechargeCard, { ...body, card_id: params.id });
  }

  @Post('cards/:id/withdraw') @HttpCode(200)
  withdrawCard(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: CardAmountBody) {
    return this.services.execute(request, IssuingCommand.withdrawCard, { ...body, card_id: params.id });
  }

  @Post('cards/:id/reset_pin') @HttpCode(200)
  resetPin(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: ResetPinBody) {
    return this.services.execute(request, IssuingCommand.resetPin, { card_id: params.id, sealed: this.secrets.seal({ pin: body.pin }) });
  }

  @Post('cards/:id/elevate_limit') @HttpCode(200)
  elevateLimit(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Body() body: ElevateLimitBody) {
    return this.services.execute(request, IssuingCommand.elevateLimit, { ...body, card_id: params.id });
  }

  @Post('cards/:id/network_protection/enrol') @HttpCode(200)
  enrolNetworkProtection(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.enrolNetworkProtection, { card_id: params.id });
  }

  @Post('cards/:id/network_protection/remove') @HttpCode(200)
  removeNetworkProtection(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.removeNetworkProtection, { card_id: params.id });
  }

  @Get('card_orders/:id')
  retrieveCardOrder(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.retrieveCardOrder, { card_order_id: params.id });
  }

  @Get('card_arts')
  listCardArts(@Req() request: AuthenticatedRequest, @Query() query: ListCardArtsPayload) {
    return this.services.execute(request, IssuingCommand.listCardArts, query);
  }

  @Post('card_arts/:id/default') @HttpCode(200)
  setDefaultCardArt(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingCommand.setDefaultCardArt, { card_art_id: params.id });
  }
}
