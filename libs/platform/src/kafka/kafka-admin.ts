import { Kafka } from 'kafkajs';

/** A lazily connected admin client used by the readiness probe. */
export class KafkaAdminHandle {
  private connecting?: Promise<ReturnType<Kafka['admin']>>;
  constructor(private readonly kafka: Kafka) {}

  async describeCluster(): Promise<unknown> {
    this.connecting ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })().catch((error) => {
      this.connecting = undefined;
      throw error;
    });
    const admin = await this.connecting;
    return admin.describeCluster();
  }

  async close(): Promise<void> {
    const admin = await this.connecting?.catch(() => undefined);
    await admin?.disconnect();
  }
}
