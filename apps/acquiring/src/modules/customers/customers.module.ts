import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { CustomerRepository } from './customer.repository';
import { CustomerService } from './customer.service';

/** Customers and their saved cards (Card on File), used by payments and the hosted checkout page. */
@Module({
  imports: [CardsModule],
  providers: [CustomerRepository, CustomerService],
  exports: [CustomerService],
})
export class CustomersModule {}
