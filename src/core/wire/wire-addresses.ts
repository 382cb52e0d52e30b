/** The bill and ship address fields an object shows on the wire (customer, invoice), null where unset. */
export type WireAddresses = {
  bill_addr1: string | null;
  bill_addr2: string | null;
  bill_addr3: string | null;
  bill_city: string | null;
  bill_state: string | null;
  bill_postcode: string | null;
  bill_country: string | null;
  ship_addr1: string | null;
  ship_addr2: string | null;
  ship_addr3: string | null;
  ship_city: string | null;
  ship_state: string | null;
  ship_postcode: string | null;
  ship_country: string | null;
};
