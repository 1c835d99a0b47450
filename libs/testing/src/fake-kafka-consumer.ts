import { EventEmitter } from 'node:events';
import { Consumer } from 'kafkajs';

/**
 * A kafkajs consumer stand-in for unit specs of what creates, supervises or configures consumers (the broker's
 * side is the integration specs'): `run()` joins the group at once, as kafkajs' resolves once joined; a spec
 * can make it crash or join again, and make its connect fail.
 */
export class FakeKafkaConsumer extends EventEmitter {
  readonly events = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' } as Consumer['events'];
  connected = false;
  disconnects = 0;

  constructor(private readonly failConnect = false) {
    super();
  }

  async connect() {
    if (this.failConnect) throw new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    this.connected = true;
  }

  async disconnect() {
    this.connected = false;
    this.disconnects += 1;
  }

  async subscribe() {}

  async run() {
    this.join();
  }

  join() {
    this.emit(this.events.GROUP_JOIN, { payload: {} });
  }

  crash(restart: boolean, message = 'Failed to find group coordinator') {
    this.emit(this.events.CRASH, { payload: { error: new Error(message), restart, groupId: 'g' } });
  }

  asConsumer(): Consumer {
    return this as unknown as Consumer;
  }
}
