import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Customer } from 'src/customers/entities/customer.entity';

/**
 * Which customers a signed-in contact may see: its own and its children (a parent pays
 * for its child customers). Every page checks ids typed into URLs against this.
 */
@Injectable()
export class PortalAccess {
  constructor(private readonly dataSource: DataSource) {}

  async customerIds(customerId: number): Promise<number[]> {
    const children = await this.dataSource.getRepository(Customer).find({
      select: { customer_id: true },
      where: { parent_customer_id: customerId },
      order: { customer_id: 'ASC' },
    });
    return [customerId, ...children.map((c) => c.customer_id)];
  }
}
