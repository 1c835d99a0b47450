import { IsString, MaxLength, MinLength } from 'class-validator';

/**
 * The path id of the webhook routes. Bodies and queries are the commands' classes
 * (libs/contracts/src/webhooks.commands.ts), whose rules the dispatcher applies to the payload again;
 * it alone decides what needs its data (whether the URL's host is public, whether the endpoint belongs
 * to the caller).
 */
export class IdParam {
  @IsString() @MinLength(1) @MaxLength(64) id!: string;
}
