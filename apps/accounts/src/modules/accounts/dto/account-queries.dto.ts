import { IsIn, IsInt, IsISO31661Alpha2, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { BUSINESS_CODES, BusinessCode } from '@paygrid/contracts';

/**
 * Payloads of the read-only account commands. The gateway validates the HTTP query first; these
 * re-check what the service relies on (decisions §4: page size 10–100 and page number ≥ 1 are
 * refused, not clamped).
 */
export const PAGE_SIZE_MIN = 10;
export const PAGE_SIZE_MAX = 100;

export class ListAccountsDto {
  @IsInt() @Min(PAGE_SIZE_MIN) @Max(PAGE_SIZE_MAX) page_size!: number;
  @IsInt() @Min(1) page_number!: number;
}

export class RetrieveAccountDto {
  @IsUUID('4') account_id!: string;
  /** Spec 4.9 default BANKING; the SDKs never send it. Accepted, not used to filter. */
  @IsOptional() @IsIn(BUSINESS_CODES) business_code?: BusinessCode;
}

export class GetAdditionalDto {
  @IsISO31661Alpha2({ message: '$property must be an ISO 3166-1 alpha-2 country code' }) country!: string;
  @IsIn(BUSINESS_CODES) business_code!: BusinessCode;
}

export class ResolveOnBehalfOfDto {
  @IsUUID('4') target_account_id!: string;
}
