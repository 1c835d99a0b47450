import { IsUUID } from 'class-validator';

/**
 * The path of `GET /v1/accounts/{id}`. Queries and bodies of the account routes are the commands'
 * payload classes (libs/contracts/src/accounts.commands.ts).
 */
export class AccountIdParam {
  @IsUUID('4', { message: 'must be a uuid v4' })
  id!: string;
}
