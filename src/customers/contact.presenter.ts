import { EntityManager, In } from 'typeorm';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from './entities/customer.entity';
import { ReferenceService } from 'src/reference/reference.service';
import { Contact } from './entities/contact.entity';
import { customFields20 } from 'src/core/wire/custom-fields';
import { WireContact } from './wire-contact';
import { WireCustomer } from './wire-customer';

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

/** A contact (`/user`) on the wire (SPEC "Contact / user"). */
/** The wire shape of a contact (SPEC "Contact / user"; field order as recorded). */
export function presentContact(
  contact: Contact,
  customer: ContactCustomerRef | null,
  wire: WireFormat,
  reference: ReferenceService,
): WireContact {
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
): Promise<WireContact | null> {
  return (await presentStoredContacts(manager, [userId], wire, reference)).get(userId) ?? null;
}

/** `presentStoredContact` for many contacts, by user id, in one query (the missing ones left out). */
export async function presentStoredContacts(
  manager: EntityManager,
  userIds: readonly number[],
  wire: WireFormat,
  reference: ReferenceService,
): Promise<Map<number, WireContact>> {
  if (userIds.length === 0) return new Map();
  const contacts = await manager
    .createQueryBuilder(Contact, 'u')
    .leftJoinAndMapOne('u.customer', Customer, 'c', 'c.customer_id = u.customer_id')
    .select('u')
    .addSelect(['c.customer_id', 'c.company'])
    .where({ user_id: In([...new Set(userIds)]) })
    .getMany();
  return new Map(
    (contacts as Array<Contact & { customer: ContactCustomerRef | null }>).map((contact) => [
      contact.user_id,
      presentContact(contact, contact.customer, wire, reference),
    ]),
  );
}

/** The main contacts of these presented customers (`superuser_id`), by user id, in one query. */
export function presentMainContacts(
  manager: EntityManager,
  customers: ReadonlyArray<Pick<WireCustomer, 'superuser_id'>>,
  wire: WireFormat,
  reference: ReferenceService,
): Promise<Map<number, WireContact>> {
  const userIds = customers.flatMap((c) => (c.superuser_id ? [c.superuser_id] : []));
  return presentStoredContacts(manager, userIds, wire, reference);
}
