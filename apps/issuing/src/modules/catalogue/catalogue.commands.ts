import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardArtRef, IssuingCommand, ListCardArtsPayload, ListProductsPayload } from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { pageOf } from '../../common/paging';
import { CardErrors } from '../../common/issuing-errors';
import { CatalogueRepository } from './catalogue.repository';
import { presentCardArt, presentProduct } from './product.presenter';

/** Card products (spec 4.5) and card arts (spec 2026-05-22) of the acting account. */
@Injectable()
export class CatalogueCommands {
  constructor(
    private readonly dataSource: DataSource,
    private readonly catalogue: CatalogueRepository,
  ) {}

  @HandleCommand(IssuingCommand.listProducts)
  async listProducts(payload: ListProductsPayload, context: CommandContext) {
    const page = { pageNumber: payload.page_number, pageSize: payload.page_size };
    const { items, total } = await this.catalogue.listProducts(this.dataSource, context.requireActor().account_id, page);
    return pageOf(items.map(presentProduct), total, page.pageSize);
  }

  @HandleCommand(IssuingCommand.listCardArts)
  async listCardArts(payload: ListCardArtsPayload, context: CommandContext) {
    const accountId = context.requireActor().account_id;
    const page = { pageNumber: payload.page_number, pageSize: payload.page_size };
    const { items, total } = await this.catalogue.listCardArts(this.dataSource, accountId, page);
    if (total > 0 && !(await this.catalogue.defaultCardArt(this.dataSource, accountId))) throw CardErrors.cardArtNotConfigured();
    return pageOf(items.map(presentCardArt), total, page.pageSize);
  }

  @HandleCommand(IssuingCommand.setDefaultCardArt)
  async setDefaultCardArt(payload: CardArtRef, context: WriteContext) {
    const art = await this.catalogue.setDefaultCardArt(context.tx.manager, context.requireActor().account_id, payload.card_art_id);
    if (!art) throw CardErrors.cardArtNotAvailable();
    return presentCardArt(art);
  }
}
