import { Injectable } from '@nestjs/common';
import { ObjectAction } from 'src/core/actions/actions';

/**
 * Actions on a customer. Other modules add theirs at start (payment methods add
 * `setPayMethod`), so the customer module need not know them.
 */
@Injectable()
export class CustomerActions {
  private readonly actions: Record<string, ObjectAction> = {};

  add(name: string, action: ObjectAction): void {
    this.actions[name] = action;
  }

  all(): Readonly<Record<string, ObjectAction>> {
    return this.actions;
  }
}
