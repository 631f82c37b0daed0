import { MAX_CREDIT_PACKS, MAX_PRICE, type PriceList, priceListSchema } from '@allot/domain/invoices';
import { LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';
import { z } from 'zod';
import { formatCount } from '../../../lib/format';
import { parseWhole } from '../../../lib/numbers';
import { parseMoney, toMajor } from './money';

/** Credits in one pack: the domain's bound. */
export const MAX_PACK_CREDITS = 100_000_000;

/**
 * The price-list form as typed: prices in major units of the currency ("4.00"), counts as text, so that every
 * wrong entry gets a message on its field. Field names follow the API's, so the server's field errors
 * (`licenses.0.pricePerSeatMonth`, `creditPacks.1.credits`) land on the same fields.
 */
export interface PriceListValues {
  currency: string;
  licenses: { licenseType: LicenseType; pricePerSeatMonth: string; hasFreeTier: boolean }[];
  creditPacks: { credits: string; price: string }[];
}

export function toFormValues(list: PriceList): PriceListValues {
  return {
    currency: list.currency,
    licenses: LICENSE_TYPES.map((licenseType) => {
      const price = list.licenses.find((p) => p.licenseType === licenseType);
      return {
        licenseType,
        pricePerSeatMonth: toMajor(price?.pricePerSeatMonth ?? 0, list.currency),
        hasFreeTier: price?.hasFreeTier ?? false,
      };
    }),
    creditPacks: list.creditPacks.map((pack) => ({
      credits: formatCount(pack.credits),
      price: toMajor(pack.price, list.currency),
    })),
  };
}

export const DUPLICATE_PACK = 'Each pack needs its own size.';

/** Typed values in, the price list the API takes out (minor units), or an issue on each wrong field. */
export const priceListFormSchema = z
  .object({
    currency: z.string(),
    licenses: z.array(
      z.object({
        licenseType: z.enum(LICENSE_TYPES),
        pricePerSeatMonth: z.string(),
        hasFreeTier: z.boolean(),
      }),
    ),
    creditPacks: z.array(z.object({ credits: z.string(), price: z.string() })),
  })
  .transform((values, ctx): PriceList => {
    let failed = false;
    const fail = (path: (string | number)[], message: string) => {
      failed = true;
      ctx.addIssue({ code: 'custom', path, message });
    };
    const currencyCheck = priceListSchema.shape.currency.safeParse(values.currency.trim().toUpperCase());
    if (!currencyCheck.success) fail(['currency'], currencyCheck.error.issues[0]?.message ?? '');
    const currency = currencyCheck.success ? currencyCheck.data : 'USD';

    const licenses = values.licenses.map((row, index) => {
      const price = parseMoney(row.pricePerSeatMonth, currency, MAX_PRICE);
      if (!price.ok) fail(['licenses', index, 'pricePerSeatMonth'], price.message);
      return {
        licenseType: row.licenseType,
        pricePerSeatMonth: price.ok ? price.value : 0,
        hasFreeTier: row.hasFreeTier,
      };
    });

    const sizes = new Set<number>();
    const creditPacks = values.creditPacks.map((row, index) => {
      const credits = parseWhole(row.credits, 1, MAX_PACK_CREDITS);
      if (!credits.ok) fail(['creditPacks', index, 'credits'], credits.message);
      else if (sizes.has(credits.value)) fail(['creditPacks', index, 'credits'], DUPLICATE_PACK);
      else sizes.add(credits.value);
      const price = parseMoney(row.price, currency, MAX_PRICE);
      if (!price.ok) fail(['creditPacks', index, 'price'], price.message);
      return { credits: credits.ok ? credits.value : 0, price: price.ok ? price.value : 0 };
    });
    if (creditPacks.length > MAX_CREDIT_PACKS) {
      fail(['creditPacks'], `At most ${MAX_CREDIT_PACKS} credit packs.`);
    }
    return failed ? z.NEVER : { currency, licenses, creditPacks };
  });
