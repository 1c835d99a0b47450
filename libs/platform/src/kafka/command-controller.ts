import { Controller, Type } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandFamily } from '@paygrid/contracts';
import { CommandDispatcher } from './command-dispatcher';
import { kafkaNamesOf } from './kafka-names';

/**
 * The one Kafka controller of a service: everything on its command topic goes to the dispatcher,
 * which finds the `@CommandHandler` for the command's type. Built when the app's module is registered,
 * because the topic's name depends on the stack's prefix (config KAFKA_PREFIX) and Nest reads the
 * `@MessagePattern` as static metadata; also because Nest allows one handler per pattern per app.
 */
export function commandControllerFor(family: CommandFamily, config: { KAFKA_PREFIX: string }): Type<unknown> {
  const topic = kafkaNamesOf(config).commandTopic(family);

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
