import { EntityManager } from 'typeorm';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from './entities/customer.entity';
import { ReferenceService } from 'src/reference/reference.service';
import { Contact } from './entities/contact.entity';
import { customFields20 } from 'src/core/wire/custom-fields';

export interface ContactCustomerRef {
  customer_id: number;
  company: string | null;
}

/** A contact's display name: its stored `name`, else first, middle and last name (as recorded). */
export function contactName(contact: Pick<Contact, 'name' | 'first_name' | 'middle_name_glob' | 'last_name'>): string {
  if (contact.name && contact.name.trim() !== '') return contact.name;
  return [contact.first_name, contact.middle_name_glob, contact.last_name]
    .filter((p) => p && p.trim() !== '')
    .join(' ');
}

/** The wire shape of a contact (SPEC "Contact / user"; field order as recorded). */
export function presentContact(
  contact: Contact,
  customer: ContactCustomerRef | null,
  wire: WireFormat,
  reference: ReferenceService,
): Record<string, unknown> {
  const name = contactName(contact);
  return {
    user_id: contact.user_id,
    external_key: contact.external_key,
    first_name: contact.first_name,
    middle_name_glob: contact.middle_name_glob,
    last_name: contact.last_name,
    name_suffix: contact.name_suffix,
    title: contact.title ?? '',
    email: contact.email,
    token: contact.token,
    phone: contact.phone ?? '',
    mobile: contact.mobile ?? '',
    user_type_id: contact.user_type_id,
    user_type_name: reference.userType(contact.user_type_id)?.user_type_name ?? null,
    write_datetime: wire.datetime(contact.write_datetime),
    mod_datetime: wire.datetime(contact.mod_datetime),
    name,
    display_as: name,
    username: contact.username,
    customer_id: contact.customer_id,
    ...customFields20(contact),
    url_self: wire.apiUrl('user', contact.user_id),
    customers: customer ? [{ customer_id: String(customer.customer_id), company: customer.company }] : [],
  };
}

/** Loads a contact and its customer and presents them; null when the contact does not exist. */
export async function presentStoredContact(
  manager: EntityManager,
  userId: number,
  wire: WireFormat,
  reference: ReferenceService,
): Promise<Record<string, unknown> | null> {
  const contact = await manager.findOne(Contact, { where: { user_id: userId } });
  if (!contact) return null;
  const customer = await manager.findOne(Customer, {
    where: { customer_id: contact.customer_id },
    select: { customer_id: true, company: true },
  });
  return presentContact(contact, customer, wire, reference);
}
