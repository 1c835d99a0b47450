import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  Max,
  Min,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { defineCommand, returns } from './command-definition';
import {
  AccountPage,
  AccountSettingsView,
  AccountView,
  AdditionalDocument,
  BUSINESS_CODES,
  BusinessCode,
  CREDENTIAL_PERMISSIONS,
  CreatedCredential,
  CreatedSubAccountView,
  CredentialPermission,
  CredentialView,
  ResolvedAccount,
  VerifiedCredential,
} from './accounts';
import { CreateSubAccountDto } from './create-sub-account.dto';
import { Country, Text, Uuid } from './validation/field-rules';
import { PagePayload } from './validation/paging';

/**
 * The commands of the accounts service, each declared once with the class its payload must satisfy.
 * The gateway validates its query strings with the same classes (the wire query IS the payload), so
 * a rule lives here only. Merchant commands carry the gateway's actor; the credential commands come
 * without one (token issuance happens before anyone is authenticated; the others are the operators'
 * CLI).
 */

/** `GET /v1/accounts` (spec 4.8). */
export class ListAccountsPayload extends PagePayload {}

/** The query of `GET /v1/accounts/{id}` (spec 4.9): business_code is accepted, never used to filter. */
export const RETRIEVE_BUSINESS_CODES: readonly BusinessCode[] = ['BANKING', 'ACQUIRING', 'ISSUING'];
export class RetrieveAccountQuery {
  @IsOptional() @IsIn(RETRIEVE_BUSINESS_CODES) business_code?: BusinessCode;
}

export class RetrieveAccountPayload extends RetrieveAccountQuery {
  @IsUUID('4') account_id!: string;
}

/**
 * `GET /v1/accounts/get_additional` (spec 4.10). The country in either case, like every other country field
 * (create sub-account's included): the SDK passes the caller's value as is, and the table upper-cases it.
 */
export class GetAdditionalPayload {
  @Country() country!: string;

  @IsIn(BUSINESS_CODES) business_code!: BusinessCode;
}

/** The gateway's `x-on-behalf-of`: may the actor act for this account? */
export class ResolveOnBehalfOfPayload {
  /** Any uuid (the gateway's rule too): a well-formed id that names no sub-account is sub_account_not_found. */
  @Uuid() target_account_id!: string;
}

/** Operators set an account's platform settings (decisions §7: the capture window, 1 to 24 hours). */
export class UpdateAccountSettingsPayload {
  @IsUUID('4') account_id!: string;
  @IsInt() @Min(1) @Max(24) capture_window_hours!: number;
}

/** Token issuance: client id + API key, and the caller's IP as the gateway saw it (the allow-list). */
export class VerifyCredentialsPayload {
  @Text({ max: 128 }) client_id!: string;
  @Text({ max: 256 }) api_key!: string;
  @IsIP() ip!: string;
}

/**
 * Allow-list entries are checked for shape here (strings) and for meaning (address or CIDR) by the
 * service, which uses the platform's matcher, so what is accepted is exactly what can be matched.
 */
export const ALLOWLIST_MAX = 50;

export class CreateCredentialPayload {
  @IsUUID('4') account_id!: string;
  @Text({ optional: true, max: 100 }) label?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ALLOWLIST_MAX)
  @IsString({ each: true })
  ip_allowlist?: string[];

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(CREDENTIAL_PERMISSIONS, { each: true })
  permissions?: CredentialPermission[];

  /** Sandbox only (refused in production): a chosen client id instead of a random one. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{3,64}$/, { message: '$property must be 3 to 64 letters, digits, _ or -' })
  client_id?: string;

  /** Sandbox only (refused in production): a chosen key instead of a random one. */
  @IsOptional() @IsString() @MinLength(16) @MaxLength(256) api_key?: string;
}

export class ListCredentialsPayload {
  @IsOptional() @IsUUID('4') account_id?: string;
}

/** Exactly one of the two (the service says so when both or neither are given). */
export class RevokeCredentialPayload {
  @Text({ optional: true, max: 64 }) key_id?: string;
  @Text({ optional: true, max: 128 }) client_id?: string;
}

export const AccountCommand = {
  list: defineCommand('accounts.list', {
    payload: ListAccountsPayload,
    result: returns<AccountPage>(),
    mutates: false,
  }),
  retrieve: defineCommand('accounts.retrieve', {
    payload: RetrieveAccountPayload,
    result: returns<AccountView>(),
    mutates: false,
  }),
  createSubAccount: defineCommand('accounts.create_sub_account', {
    payload: CreateSubAccountDto,
    result: returns<CreatedSubAccountView>(),
    mutates: true,
  }),
  getAdditional: defineCommand('accounts.get_additional', {
    payload: GetAdditionalPayload,
    result: returns<AdditionalDocument[]>(),
    mutates: false,
  }),
  resolveOnBehalfOf: defineCommand('accounts.resolve_on_behalf_of', {
    payload: ResolveOnBehalfOfPayload,
    result: returns<ResolvedAccount>(),
    mutates: false,
  }),
  /** The operators' (no merchant actor): announced as account.settings.updated when a value changes. */
  updateSettings: defineCommand('accounts.update_settings', {
    payload: UpdateAccountSettingsPayload,
    result: returns<AccountSettingsView>(),
    mutates: true,
    needsActor: false,
  }),
};

export const CredentialCommand = {
  verify: defineCommand('accounts.credentials.verify', {
    payload: VerifyCredentialsPayload,
    result: returns<VerifiedCredential>(),
    mutates: false,
    needsActor: false,
  }),
  /**
   * Deliberately not a mutating command: the command ledger stores every reply for replays, and this
   * reply holds the clear API key, which must exist nowhere once shown. A repeated create issues a
   * second key (the service writes the key and its event in one transaction of its own).
   */
  create: defineCommand('accounts.credentials.create', {
    payload: CreateCredentialPayload,
    result: returns<CreatedCredential>(),
    mutates: false,
    needsActor: false,
  }),
  list: defineCommand('accounts.credentials.list', {
    payload: ListCredentialsPayload,
    result: returns<CredentialView[]>(),
    mutates: false,
    needsActor: false,
  }),
  revoke: defineCommand('accounts.credentials.revoke', {
    payload: RevokeCredentialPayload,
    result: returns<CredentialView>(),
    mutates: true,
    needsActor: false,
  }),
};
