/**
 * Request bodies of the reference API's recorded traffic (recorded-traffic.txt), the first
 * recorded one of each operation, used as the examples of the OpenAPI document. Data only.
 */
export const RECORDED_EXAMPLES: Readonly<Record<string, { fixture: string; body: unknown }>> = {
  'POST /api/v3/customer': {
    fixture: 'new_customer.yml',
    body: {
      external_key: 'mycustomer_id',
      company: 'Another Customer',
      superuser_email: 'customer@example.com',
      superuser_first_name: 'John',
      superuser_last_name: 'Smith',
      bill_addr1: '555 Main Street',
      bill_addr2: 'Suite 86',
      bill_state: 'Vermont',
      bill_postcode: '05401',
      bill_country: 'United States',
      custom_1: '123456',
    },
  },
  'POST /api/v3/item': {
    fixture: 'create_item.yml',
    body: { type: 'service', name: 'Test Product', pricemodel: { base: 100.99, paycycle: 'mon', pricemodel: 'fla' } },
  },
  'POST /api/v3/package/{ref}?action=hold': {
    fixture: 'update_package_invoice_date.yml',
    body: { holduntil_datetime: '2015-03-26' },
  },
  'POST /api/v3/package/{ref}?action=paycycle': {
    fixture: 'update_package_payment_cycle.yml',
    body: { paycycle: 'mon' },
  },
  'POST /api/v3/package/{ref}?action=paymethod': {
    fixture: 'update_package_payment_method.yml',
    body: { paymethod: 'inv' },
  },
  'POST /api/v3/package/{ref}?action=upgrade': {
    fixture: 'add_line_item.yml',
    body: { line_items: [{ item_id: 8, tierset: { base: '800', pricemodel: 'fla', paycycle: 'mon' } }] },
  },
  'POST /api/v3/tokenized': {
    fixture: 'create_tokenized_card.yml',
    body: { customer_id: 35, type: 'customer', token: 'cus_1CoGUjtUMyLIDR' },
  },
  'POST /api/v3/transaction': {
    fixture: 'create_and_apply_credit.yml',
    body: {
      customer_id: 18,
      transaction_type: 'cre',
      gateway_method: 'credit',
      amount: '42.50',
      gateway_status: 1,
      gateway_transid: 'API Credit',
      transaction_detail: 'Credit for unused Image Relay Small',
      applied_to: [{ invoice_id: 10027 }],
    },
  },
  'POST /api/v3/transaction/{ref}?action=refund': {
    fixture: 'refund_cc_payment_partial_amount.yml',
    body: { amount: 10.0 },
  },
  'POST /api/v3/transaction?action=pay': {
    fixture: 'attempt_failure_of_invoice.yml',
    body: { customer_id: 34, applied_to: ['10063'] },
  },
  'POST /api/v3/user': {
    fixture: 'create_contact.yml',
    body: { first_name: 'John', last_name: 'Doe', email: 'jd@example.com', customer_id: 44 },
  },
  'PUT /api/v3/customer/{ref}': {
    fixture: 'update_customer.yml',
    body: {
      company: 'Updated Company Name',
      superuser_email: 'newemail@example.com',
      superuser_first_name: 'Todd',
      bill_addr1: 'New Street',
      bill_state: 'MA',
      bill_city: 'Mashpee',
    },
  },
  'PUT /api/v3/package/{ref}': { fixture: 'update_custom_1.yml', body: { custom_1: '123456' } },
  'PUT /api/v3/user/{ref}': { fixture: 'updates_contact.yml', body: { name: 'Jane Doe', email: 'j@example.com' } },
};
