import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One API credential of an account: a client id (public) and the HMAC of its API key (the key itself
 * is never stored), with the caller IPs it accepts and its permissions. Revoked credentials stay, so
 * their key ids can be re-published to the gateway's revocation set. All SQL: CredentialRepository.
 */
@Entity({ name: 'api_credentials' })
export class CredentialEntity {
  /** `key_<time-sortable id>`: names the key in JWTs, logs and the revocation set. */
  @PrimaryColumn('text', { name: 'key_id' })
  keyId!: string;

  @Column('text', { name: 'client_id', unique: true })
  clientId!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  /** Lower-case hex HMAC-SHA256 (api-key.hasher.ts). */
  @Column('text', { name: 'key_hash' })
  keyHash!: string;

  /** Addresses and CIDR ranges; empty allows every caller. */
  @Column('text', { name: 'ip_allowlist', array: true })
  ipAllowlist!: string[];

  @Column('text', { array: true })
  permissions!: string[];

  @Column('text', { nullable: true })
  label!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
