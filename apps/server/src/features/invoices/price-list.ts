import type { PriceList } from '@allot/domain/invoices';
import { INVOICE_MSG } from '@allot/domain/invoices';
import { LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { requireSystemAdmin } from '../organization-access';

/** The price list (CONTRACT §7, decision 010): stored in the database, seeded by migration 0013. */
export async function readPriceList(db: Db | Tx): Promise<PriceList> {
  const [head] = await rows<{ currency: string }>(db, sql`select currency from price_list where id = 1`);
  const prices = await rows<{
    license_type: LicenseType;
    price_per_seat_month: number;
    has_free_tier: boolean;
  }>(db, sql`select license_type, price_per_seat_month, has_free_tier from license_prices`);
  const packs = await rows<{ credits: number; price: number }>(
    db,
    sql`select credits, price from credit_packs order by credits`,
  );
  const byType = new Map(prices.map((p) => [p.license_type, p]));
  return {
    currency: head?.currency ?? 'USD',
    // In the order of the licence types; a type missing from the table (never, after the seed) costs nothing.
    licenses: LICENSE_TYPES.map((licenseType) => ({
      licenseType,
      pricePerSeatMonth: Number(byType.get(licenseType)?.price_per_seat_month ?? 0),
      hasFreeTier: byType.get(licenseType)?.has_free_tier ?? false,
    })),
    creditPacks: packs.map((p) => ({ credits: Number(p.credits), price: Number(p.price) })),
  };
}

/** PUT /api/invoice/products: a system admin replaces the list. Open invoices keep the amounts they have. */
export async function updatePriceList(tx: Tx, user: AuthUser, input: PriceList): Promise<PriceList> {
  await requireSystemAdmin(tx, user, { message: INVOICE_MSG.systemAdminOnly });
  await tx.execute(sql`insert into price_list (id, currency, updated_by) values (1, ${input.currency}, ${user.userId})
    on conflict (id) do update set currency = excluded.currency, updated_at = now(), updated_by = excluded.updated_by`);
  for (const price of input.licenses) {
    await tx.execute(sql`insert into license_prices (license_type, price_per_seat_month, has_free_tier)
      values (${price.licenseType}, ${price.pricePerSeatMonth}, ${price.hasFreeTier})
      on conflict (license_type) do update set price_per_seat_month = excluded.price_per_seat_month,
        has_free_tier = excluded.has_free_tier`);
  }
  await tx.execute(sql`delete from credit_packs`);
  for (const pack of input.creditPacks) {
    await tx.execute(sql`insert into credit_packs (credits, price) values (${pack.credits}, ${pack.price})`);
  }
  return readPriceList(tx);
}
