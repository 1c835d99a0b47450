import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsIP, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { CREDENTIAL_PERMISSIONS, CredentialPermission } from '@paygrid/contracts';
import { Text } from '@paygrid/contracts';

/**
 * Payloads of the credential commands. Framework-free like the account DTOs. The allow-list entries
 * are checked for shape here (strings) and for meaning (address or CIDR) by the service, which uses
 * the platform's matcher so that what is accepted is exactly what can be matched.
 */
export const ALLOWLIST_MAX = 50;

export class VerifyCredentialsDto {
  @Text({ max: 128 }) client_id!: string;
  @Text({ max: 256 }) api_key!: string;
  @IsIP() ip!: string;
}

export class CreateCredentialDto {
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

export class ListCredentialsDto {
  @IsOptional() @IsUUID('4') account_id?: string;
}

export class RevokeCredentialDto {
  @Text({ optional: true, max: 64 }) key_id?: string;
  @Text({ optional: true, max: 128 }) client_id?: string;
}
