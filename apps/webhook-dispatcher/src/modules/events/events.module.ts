import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { SendingModule } from '../sending/sending.module';
import { EventIntakeService } from './event-intake.service';
import { EventRepository } from './event.repository';

/** The event intake: every domain event stored once and fanned out to the subscribed endpoints. */
@Module({
  imports: [DeliveriesModule, EndpointsModule, SendingModule],
  providers: [EventRepository, EventIntakeService],
})
export class EventsModule {}
