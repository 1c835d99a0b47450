import { Controller, Type } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandTopic } from '@paygrid/contracts';
import { CommandDispatcher } from './command-dispatcher';

/**
 * The one Kafka controller of a service: everything on its command topic goes to the dispatcher,
 * which finds the `@CommandHandler` for the command's type. Built per topic because Nest allows one
 * handler per pattern per app.
 */
export function commandControllerFor(topic: CommandTopic): Type<unknown> {
  @Controller()
  class CommandTopicController {
    constructor(readonly dispatcher: CommandDispatcher) {}

    @MessagePattern(topic)
    handle(@Payload() payload: unknown, @Ctx() context: KafkaContext) {
      return this.dispatcher.dispatch(payload, context);
    }
  }
  return CommandTopicController;
}
