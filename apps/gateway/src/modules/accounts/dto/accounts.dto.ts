import { IsIn, IsOptional, IsUUID, Matches } from 'class-validator';
import { BusinessCode } from '@paygrid/contracts';
import { PaginationQuery } from '../../../common/pagination.dto';

/** HTTP shapes of the account routes (spec 4.8, 4.9, 4.10; wire-compat §10). */
export class ListAccountsQuery extends PaginationQuery {}

export class AccountIdParam {
  @IsUUID('4', { message: 'must be a uuid v4' })
  id!: string;
}

const RETRIEVE_CODES: BusinessCode[] = ['BANKING', 'ACQUIRING', 'ISSUING'];

export class RetrieveAccountQuery {
  @IsOptional()
  @IsIn(RETRIEVE_CODES, { message: `must be one of ${RETRIEVE_CODES.join(', ')}` })
  business_code: BusinessCode = 'BANKING';
}

const ALL_CODES: BusinessCode[] = ['BANKING', 'ACQUIRING', 'ISSUING', 'RAMP'];

export class GetAdditionalQuery {
  @Matches(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code' })
  country!: string;

  @IsIn(ALL_CODES, { message: `must be one of ${ALL_CODES.join(', ')}` })
  business_code!: BusinessCode;
}
