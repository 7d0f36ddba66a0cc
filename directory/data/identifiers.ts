/**
 * National identifiers with valid check digits, so that demo data passes the validation a real
 * client would apply (a SIREN that fails Luhn, or an IBAN with a wrong key, would look like a bug).
 */

import { flat } from "./flat.js";
import type { Random } from "./random.js";

function digits(rng: Random, count: number): string {
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = rng.int(0, 9);
  return out.join("");
}

/** the Luhn check digit that makes `body + digit` pass the Luhn test */
export function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // doubling starts with the rightmost digit of the body, because the check digit is appended
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function luhnValid(value: string): boolean {
  return /^\d+$/.test(value) && luhnCheckDigit(value.slice(0, -1)) === value.slice(-1);
}

/** a 9-digit SIREN (French company number), Luhn-valid */
export function siren(rng: Random): string {
  const body = String(rng.int(1, 9)) + digits(rng, 7);
  return flat`${body}${luhnCheckDigit(body)}`;
}

/** a 14-digit SIRET: the SIREN plus a 5-digit establishment number, Luhn-valid as a whole */
export function siret(sirenValue: string, rng: Random): string {
  const body = flat`${sirenValue}${digits(rng, 4)}`;
  return flat`${body}${luhnCheckDigit(body)}`;
}

/** remainder of a long decimal string modulo 97, without BigInt */
export function mod97(numeric: string): number {
  let rest = 0;
  for (let i = 0; i < numeric.length; i += 7) {
    rest = Number(String(rest) + numeric.slice(i, i + 7)) % 97;
  }
  return rest;
}

const NIR_DEPARTMENTS = ["75", "69", "13", "33", "59", "31", "44", "67", "92", "93", "974", "972"];
// INSEE codes of countries of birth: Spain, Germany, Italy, UK, Vietnam, Portugal, USA, Norway, Ireland
const NIR_COUNTRIES = ["134", "109", "127", "132", "243", "139", "404", "103", "136"];

/**
 * A French social security number (NIR), 15 digits: sex, year, month, department (99 for people
 * born abroad, followed by a country code), commune, order number and the key 97 - (NIR mod 97).
 */
export function frenchSsn(
  rng: Random,
  person: { sex: 1 | 2; birthYear: number; birthMonth: number; bornInFrance: boolean },
): string {
  let place: string;
  if (person.bornInFrance) {
    const dept = rng.pick(NIR_DEPARTMENTS);
    // overseas departments have three digits and a two-digit commune
    place = dept.length === 3 ? dept + digits(rng, 2) : dept + String(rng.int(1, 400)).padStart(3, "0");
  } else {
    place = "99" + rng.pick(NIR_COUNTRIES);
  }
  const body =
    String(person.sex) +
    String(person.birthYear % 100).padStart(2, "0") +
    String(person.birthMonth).padStart(2, "0") +
    place +
    String(rng.int(1, 999)).padStart(3, "0");
  const key = 97 - mod97(body);
  return flat`${body}${String(key).padStart(2, "0")}`;
}

/** ISO 13616: letters become 10..35, the country and "00" move to the end, key = 98 - mod 97 */
export function ibanCheckDigits(country: string, bban: string): string {
  const rearranged = bban + country + "00";
  let numeric = "";
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    numeric += code >= 65 && code <= 90 ? String(code - 55) : ch;
  }
  return String(98 - mod97(numeric)).padStart(2, "0");
}

export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/ /g, "");
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact)) return false;
  return ibanCheckDigits(compact.slice(0, 2), compact.slice(4)) === compact.slice(2, 4);
}

/** a French IBAN whose RIB key is right too: bank (5) + branch (5) + account (11) + key (2) */
export function frenchIban(rng: Random, bankCode: string): string {
  const branch = digits(rng, 5);
  const account = digits(rng, 11);
  const ribKey = 97 - ((89 * Number(bankCode) + 15 * Number(branch) + 3 * Number(account)) % 97);
  const bban = bankCode + branch + account + String(ribKey).padStart(2, "0");
  return flat`FR${ibanCheckDigits("FR", bban)}${bban}`;
}

/** a British IBAN: bank code (4 letters) + sort code (6) + account (8) */
export function britishIban(rng: Random, bankCode: string): string {
  const bban = bankCode + digits(rng, 6) + digits(rng, 8);
  return flat`GB${ibanCheckDigits("GB", bban)}${bban}`;
}

/** a US ABA routing number: 9 digits with the 3-7-1 weighted checksum */
export function abaRoutingNumber(rng: Random): string {
  const body = String(rng.int(1, 12)).padStart(2, "0") + digits(rng, 6);
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(body[i]) * weights[i]!;
  return flat`${body}${(10 - (sum % 10)) % 10}`;
}

export function usAccountNumber(rng: Random): string {
  return flat`${rng.int(1, 9)}${digits(rng, rng.int(8, 11))}`;
}

/** a US social security number outside the never-issued areas (000, 666, 900-999) */
export function usSsn(rng: Random): string {
  let area = rng.int(1, 899);
  if (area === 666) area = 667;
  return flat`${String(area).padStart(3, "0")}-${String(rng.int(1, 99)).padStart(2, "0")}-${String(rng.int(1, 9999)).padStart(4, "0")}`;
}

/** a UK National Insurance number such as `QQ 12 34 56 C` without the reserved prefixes */
const NINO_FIRST = [..."ABCEGHJKLMNOPRSTWXYZ"];
const NINO_SECOND = [..."ABCEGHJKLMNPRSTWXYZ"];
const NINO_SUFFIX = ["A", "B", "C", "D"];

export function britishNino(rng: Random): string {
  return flat`${rng.pick(NINO_FIRST)}${rng.pick(NINO_SECOND)}${digits(rng, 6)}${rng.pick(NINO_SUFFIX)}`;
}

/** a Swiss company UID `CHE-123.456.789` whose last digit is the mod-11 check digit */
export function swissUid(rng: Random): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4];
  for (;;) {
    const body = digits(rng, 8);
    let sum = 0;
    for (let i = 0; i < 8; i++) sum += Number(body[i]) * weights[i]!;
    const check = (11 - (sum % 11)) % 11;
    // 10 cannot be written as one digit: such numbers are never issued
    if (check === 10) continue;
    const all = body + String(check);
    return `CHE-${all.slice(0, 3)}.${all.slice(3, 6)}.${all.slice(6)}`;
  }
}

/** a UK company registration number: eight digits */
export function britishCompanyNumber(rng: Random): string {
  return "0" + digits(rng, 7);
}

/** a US employer identification number `12-3456789` */
export function usEin(rng: Random): string {
  return `${rng.int(10, 98)}-${digits(rng, 7)}`;
}
