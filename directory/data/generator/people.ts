import { flat } from "../flat.js";
import {
  BANKS,
  CATEGORY,
  FAMILIES,
  FAMILY_ORDER,
  TEMPLATES,
  WORKING_TIME_ARRANGEMENTS,
  type Family,
} from "../catalog.js";
import {
  abaRoutingNumber,
  britishIban,
  britishNino,
  frenchIban,
  frenchSsn,
  usAccountNumber,
  usSsn,
} from "../identifiers.js";
import type {
  EmployeeAttribute,
  EmployeePersonalRecord,
  Employment,
  JobPosition,
  Stamped,
} from "../model.js";
import {
  NAME_POOLS,
  POOL_WEIGHTS_BY_COUNTRY,
  emailPart,
  type NamePool,
  type PoolKey,
} from "../names.js";
import { Random } from "../random.js";
import { WeightedPicker, EMAIL_DOMAIN, FIRST_HIRE_AFTER, SALT_EMPLOYEE, type DeptInfo, type Stint, type EmployeeKind } from "./state.js";
import { ReferenceDataPhase } from "./reference-data.js";

/** A phase of the demo company's generator (generate.ts): each employee, drawn from a stream of their own: careers (employments, job positions), attributes, personal records, probationary periods. */
export abstract class PeoplePhase extends ReferenceDataPhase {
  // ---------------------------------------------------------------- people

  protected poolPicker(country: string): WeightedPicker<PoolKey> {
    let picker = this.poolPickers.get(country);
    if (!picker) {
      picker = new WeightedPicker(POOL_WEIGHTS_BY_COUNTRY[country] ?? [["enGB", 1]]);
      this.poolPickers.set(country, picker);
    }
    return picker;
  }

  protected uniqueEmail(given: string, family: string): string {
    const base = `${emailPart(given) || "x"}.${emailPart(family) || "x"}`;
    const count = (this.emailCounts.get(base) ?? 0) + 1;
    this.emailCounts.set(base, count);
    // the counter suffix cannot collide with another base: bases never end in a digit
    return count === 1 ? flat`${base}@${EMAIL_DOMAIN}` : flat`${base}${count}@${EMAIL_DOMAIN}`;
  }

  /** employment timeline, oldest first, never overlapping */
  protected drawTimeline(kind: EmployeeKind, founder: boolean, home: number, rng: Random): Stint[] {
    const T = this.today;
    const firstHire = this.founded + FIRST_HIRE_AFTER;
    const stints: Stint[] = [];
    const otherEstablishment = (): number => (rng.chance(0.8) ? home : this.establishmentPicker.pick(rng));

    const addPrior = (beforeDay: number, probability: number): void => {
      let boundary = beforeDay;
      const earlier: Stint[] = [];
      let chance = probability;
      while (rng.chance(chance)) {
        const end = boundary - rng.int(1, 400);
        const start = end - rng.int(60, 3 * 365);
        if (start < firstHire) break;
        earlier.unshift({ start, end, establishment: otherEstablishment() });
        boundary = start;
        chance = 0.25;
      }
      stints.push(...earlier);
    };

    if (kind === "active") {
      let start = founder ? T - rng.int(3 * 365, 14 * 365) : T - Math.floor(Math.pow(rng.next(), 1.6) * 12 * 365);
      let end: number | null = null;
      if (!founder && rng.chance(0.22)) {
        // fixed-term contracts are short: keep the start close enough to the end
        end = T + rng.int(0, 540);
        start = Math.max(start, T - rng.int(30, 700));
      }
      start = Math.max(start, firstHire);
      addPrior(start, founder ? 0.15 : 0.3);
      stints.push({ start, end, establishment: home });
      if (end !== null && rng.chance(0.3)) {
        const nextStart = end + rng.int(1, 45);
        stints.push({ start: nextStart, end: rng.chance(0.5) ? null : nextStart + rng.int(90, 720), establishment: home });
      }
    } else if (kind === "upcoming") {
      const start = T + rng.int(1, 120);
      addPrior(T - rng.int(30, 1500), 0.3);
      stints.push({ start, end: rng.chance(0.75) ? null : start + rng.int(90, 365), establishment: home });
    } else {
      const end = T - rng.int(1, 5 * 365);
      const start = Math.max(firstHire, end - rng.int(30, 6 * 365));
      addPrior(start, 0.2);
      stints.push({ start, end, establishment: home });
    }
    return stints;
  }

  /** template index for an employment of `entity` (0-based legal entity index) */
  protected chooseTemplate(entity: number, start: number, end: number | null, founder: boolean, rng: Random): number {
    const permanent = entity === 0 ? 0 : entity === 1 ? 3 : 5;
    if (end === null || founder) return permanent;
    const short = end - start <= 270;
    const r = rng.next();
    if (entity === 0) return r < 0.45 ? 1 : r < 0.6 && short ? 2 : permanent;
    if (r < 0.15) return 7; // contractor
    if (r < 0.25 && short) return 8; // intern
    if (r < 0.6) return entity === 1 ? 4 : 6;
    return permanent;
  }

  protected phoneNumber(country: string, establishment: number, rng: Random): string {
    const sep = rng.pick(PHONE_SEPARATORS);
    if (country === "FRA") {
      return flat`+33${rng.int(6, 7)}${sep}${rng.int(100, 999)}${sep}${String(rng.int(0, 99999)).padStart(5, "0")}`;
    }
    // +44 7700 900xxx is the range Ofcom keeps for drama
    if (country === "GBR") return flat`+447${sep}700${sep}900${String(rng.int(0, 999)).padStart(3, "0")}`;
    const area = rng.pick(US_AREA_CODES[establishment] ?? US_AREA_CODES[4]!);
    // 555-0100 to 555-0199 are the numbers reserved for fiction
    const line = String(rng.int(0, 99)).padStart(2, "0");
    return rng.chance(0.5) ? flat`(${area}) 555-01${line}` : flat`${area}-555-01${line}`;
  }

  protected buildEmployee(index: number): void {
    const rng = this.root.fork(SALT_EMPLOYEE + index);
    const T = this.today;
    const id = String(index + 1);
    const founderDept = index < this.founders.length ? this.founders[index]! : -1;
    const founder = founderDept >= 0;

    let kind: EmployeeKind = "active";
    if (!founder) {
      const r = rng.next();
      kind = r < 0.78 ? "active" : r < 0.86 ? "upcoming" : "deactivated";
    }
    // the CEO works at the Paris headquarters
    const home = index === 0 ? 0 : this.establishmentPicker.pick(rng);
    const homeEntity = Number(this.establishments[home]!.legalEntityId) - 1;
    const country = this.legalEntities[homeEntity]!.countryCode;

    const poolKey = this.poolPicker(country).pick(rng);
    const pool: NamePool = NAME_POOLS[poolKey];
    const g = rng.next();
    const gender = g < 0.47 ? "female" : g < 0.94 ? "male" : "neutral";
    const given = rng.pick(gender === "female" ? pool.female : gender === "male" ? pool.male : pool.neutral);
    const family = rng.pick(pool.family);

    const age = rng.int(19, 66);
    const birthDay = T - age * 365 - rng.int(0, 364);
    const birth = this.days.monthDay(birthDay);

    const stints = this.drawTimeline(kind, founder, home, rng);
    const employeeCreatedDay = Math.max(this.founded, stints[0]!.start - rng.int(10, 45));
    const employeeStamp = this.stamp(employeeCreatedDay, rng);

    const email = rng.chance(0.03) ? null : this.uniqueEmail(given, family);
    this.employees.push({
      id,
      remoteId: `W${String(index + 1).padStart(6, "0")}`,
      givenName: given,
      familyName: family,
      employeeNumber: String(index + 1).padStart(5, "0"),
      email,
      phoneNumber: rng.chance(0.8) ? this.phoneNumber(country, home, rng) : null,
      birthDay: { day: birth.day, month: birth.month },
      portraitId: id,
      ...employeeStamp,
    });

    // careers: seniority grows along the positions, the department mostly stays
    // department heads were hired senior
    let step = founder ? 2 : rng.int(0, 1);
    let dept = this.departmentPicker.pick(rng);
    let lastPositionIndex = -1;
    let lastFamily: Family = this.departments[dept]!.family;

    stints.forEach((stint) => {
      const entity = Number(this.establishments[stint.establishment]!.legalEntityId) - 1;
      const templateIndex = this.chooseTemplate(entity, stint.start, stint.end, founder, rng);
      const template = TEMPLATES[templateIndex]!;
      const employmentId = String(this.employments.length + 1);
      const employmentCreatedDay = Math.max(employeeCreatedDay, stint.start - rng.int(5, 40));
      const employment: Employment = {
        id: employmentId,
        remoteId: rng.chance(0.9) ? flat`CTR-${this.days.year(stint.start)}-${employmentId.padStart(5, "0")}` : null,
        employeeId: id,
        startDate: this.date(stint.start),
        endDate: stint.end === null ? null : this.date(stint.end),
        templateId: this.templates[templateIndex]!.id,
        documentId: rng.chance(0.6) ? String(this.nextFileId++) : null,
        ...this.stamp(employmentCreatedDay, rng),
      };
      this.employments.push(employment);

      const isCurrent = stint.start <= T && (stint.end === null || stint.end >= T);
      // founders keep their department as their position of today, with nothing planned after it
      let limit: number;
      if (stint.end !== null) limit = stint.end;
      else if (stint.start > T) limit = stint.start + 365;
      else limit = !founder && rng.chance(0.1) ? T + 90 : T;
      const starts = this.positionStarts(stint.start, limit, rng);

      const entityEstablishments = this.establishmentsOfEntity.get(entity)!;
      let establishment = stint.establishment;
      starts.forEach((startsOn, p) => {
        if (p > 0 && entityEstablishments.length > 1 && rng.chance(0.12)) establishment = rng.pick(entityEstablishments);
        if (lastPositionIndex >= 0) {
          if (rng.chance(0.35)) dept = this.departmentPicker.pick(rng);
          if (rng.chance(0.55)) step = Math.min(step + 1, 3);
        }
        const isFounderSeat = founder && isCurrent && p === starts.length - 1;
        if (isFounderSeat) dept = founderDept;
        const info = this.departments[dept]!;
        lastFamily = info.family;
        const positionIndex = this.positions.length;
        this.positions.push(
          this.buildPosition(rng, {
            id: String(positionIndex + 1),
            employmentId,
            employeeId: id,
            startsOn,
            establishment,
            entity,
            info,
            step,
            audience: template.audience,
            createdDay: Math.max(employmentCreatedDay, startsOn - rng.int(0, 30)),
          }),
        );
        this.positionDept.push(dept);
        const nextStart = starts[p + 1];
        if (isCurrent && startsOn <= T && (nextStart === undefined || nextStart > T)) {
          this.currentDept[index] = dept;
          this.currentPosition[index] = positionIndex;
        }
        const endsOn = nextStart !== undefined ? nextStart - 1 : stint.end;
        if (rng.chance(0.3)) {
          this.addAttribute(rng, id, "jobPosition.workArrangement", this.workArrangement(rng), {
            jobPositionId: this.positions[positionIndex]!.id,
            applicability: { start: this.date(startsOn), end: endsOn === null ? null : this.date(endsOn) },
            createdDay: startsOn,
          });
        }
        lastPositionIndex = positionIndex;
      });

      if (template.audience !== "external" && rng.chance(0.85)) {
        const currency = this.legalEntities[entity]!.currencyCode;
        const base = { 0: 42_000, 1: 48_000, 2: 85_000 }[entity] ?? 50_000;
        this.addAttribute(rng, id, "employment.annualSalary", { amount: Math.round((base * (1 + step * 0.35) * (0.8 + rng.next() * 0.5)) / 100) * 100, currency }, {
          employmentId,
          applicability: { start: employment.startDate, end: employment.endDate },
          createdDay: employmentCreatedDay,
        });
      }
      if (template.audience !== "external" && rng.chance(0.55)) this.addProbation(rng, employmentId, stint, employmentCreatedDay);
    });

    this.addEmployeeAttributes(rng, id, pool, lastFamily, stints, employeeCreatedDay, country, home, kind);
    this.addPersonalRecord(rng, index, pool, gender, birthDay, country, email === null ? null : given, family, employeeStamp);
  }

  /** first position on the employment's start, later ones strictly later (two days apart at least), all <= limit */
  protected positionStarts(start: number, limit: number, rng: Random): number[] {
    const span = limit - start;
    const most = Math.min(4, 1 + Math.floor(span / 200));
    const count = rng.int(1, most);
    const offsets: number[] = [];
    for (let k = 1; k < count; k++) offsets.push(rng.int(2, Math.max(2, span)));
    offsets.sort((a, b) => a - b);
    const starts = [start];
    for (const offset of offsets) {
      if (offset > span) continue;
      if (start + offset >= starts[starts.length - 1]! + 2) starts.push(start + offset);
    }
    return starts;
  }

  protected buildPosition(
    rng: Random,
    p: {
      id: string;
      employmentId: string;
      employeeId: string;
      startsOn: number;
      establishment: number;
      entity: number;
      info: DeptInfo;
      step: number;
      audience: "employee" | "student" | "external";
      createdDay: number;
    },
  ): JobPosition {
    const professionIndex = FAMILY_ORDER.indexOf(p.info.family);
    let title: string;
    let titleFr: string;
    let qualificationId: string;
    let category: number;
    if (p.audience === "student") {
      title = `${FAMILIES[p.info.family].profession} Intern`;
      titleFr = `Stagiaire ${FAMILIES[p.info.family].fr}`;
      qualificationId = String(FAMILY_ORDER.length * 3 + 1);
      category = CATEGORY.intern;
    } else {
      const [en, fr, rank] = p.info.ladder[Math.min(p.step, p.info.ladder.length - 1)]!;
      title = en;
      titleFr = fr;
      qualificationId = String(professionIndex * 3 + rank);
      if (p.audience === "external") category = CATEGORY.contractor;
      else if (p.entity === 0) category = rank >= 2 ? CATEGORY.cadre : CATEGORY.etam;
      else if (p.entity === 1) category = CATEGORY.salaried;
      else category = rank >= 2 ? CATEGORY.exempt : CATEGORY.nonExempt;
    }
    let workingTime: string | null = null;
    if (p.entity === 0) {
      const r = rng.next();
      workingTime = r < 0.8 ? WORKING_TIME_ARRANGEMENTS.fullTime35h : r < 0.9 ? WORKING_TIME_ARRANGEMENTS.partTime80 : null;
    }
    return {
      id: p.id,
      remoteId: rng.chance(0.85) ? `JP-${p.id.padStart(6, "0")}` : null,
      employmentId: p.employmentId,
      employeeId: p.employeeId,
      startsOn: this.date(p.startsOn),
      businessEstablishmentId: this.establishments[p.establishment]!.id,
      jobTitle: title,
      jobQualificationId: this.qualifications[Number(qualificationId) - 1]!.id,
      managerId: null,
      occupationCategoryId: this.categories[category - 1]!.id,
      workingTimeArrangementId: workingTime,
      departmentId: p.info.record.id,
      documentId: rng.chance(0.2) ? String(this.nextFileId++) : null,
      notes: rng.chance(0.1) ? rng.pick(POSITION_NOTES) : null,
      t9n: this.jobTitleTranslations(title, titleFr),
      ...this.stamp(p.createdDay, rng),
    };
  }

  /**
   * Positions with the same title share one translations object: hundreds of thousands of
   * positions at 100 000 employees, a few dozen titles. Frozen, so that an in-place edit fails
   * loudly instead of retitling everybody; replace the object to change one position.
   */
  protected jobTitleTranslations(en: string, fr: string): JobPosition["t9n"] {
    let byFrench = this.titleTranslations.get(en);
    if (!byFrench) {
      byFrench = new Map();
      this.titleTranslations.set(en, byFrench);
    }
    let t9n = byFrench.get(fr);
    if (!t9n) {
      t9n = Object.freeze({ jobTitle: Object.freeze({ "en-GB": en, "fr-FR": fr }) }) as JobPosition["t9n"];
      byFrench.set(fr, t9n);
    }
    return t9n;
  }

  protected workArrangement(rng: Random): { mode: string; officeDaysPerWeek: number } {
    const r = rng.next();
    if (r < 0.35) return { mode: "onsite", officeDaysPerWeek: 5 };
    if (r < 0.85) return { mode: "hybrid", officeDaysPerWeek: rng.int(1, 4) };
    return { mode: "remote", officeDaysPerWeek: 0 };
  }

  protected addAttribute(
    rng: Random,
    employeeId: string,
    definitionId: string,
    value: unknown,
    origin: {
      employmentId?: string;
      jobPositionId?: string;
      applicability: EmployeeAttribute["applicability"];
      createdDay: number;
    },
  ): void {
    this.attributes.push({
      id: String(this.attributes.length + 1),
      definitionId,
      employeeId,
      employmentId: origin.employmentId ?? null,
      jobPositionId: origin.jobPositionId ?? null,
      applicability: origin.applicability,
      value,
      ...this.stamp(origin.createdDay, rng),
    });
  }

  protected addEmployeeAttributes(
    rng: Random,
    id: string,
    pool: NamePool,
    family: Family,
    stints: Stint[],
    createdDay: number,
    country: string,
    home: number,
    kind: EmployeeKind,
  ): void {
    const forever = FOREVER;
    if (rng.chance(0.7)) {
      this.addAttribute(rng, id, "employee.shirtSize", rng.pick(SHIRT_SIZES), { applicability: rng.chance(0.5) ? null : forever, createdDay });
    }
    if (rng.chance(0.55)) {
      const contactGiven = rng.pick(rng.chance(0.5) ? pool.female : pool.male);
      this.addAttribute(
        rng,
        id,
        "employee.emergencyContact",
        { name: flat`${contactGiven} ${rng.pick(pool.family)}`, relationship: rng.pick(RELATIONSHIPS), phoneNumber: this.phoneNumber(country, home, rng) },
        { applicability: forever, createdDay },
      );
    }
    if (rng.chance(0.8)) {
      const labelId = this.costCentreLabelIds[FAMILIES[family].costCentre - 1] ?? this.costCentreLabelIds[0]!;
      this.addAttribute(rng, id, "employee.costCenter", labelId, { applicability: null, createdDay });
    }
    if (rng.chance(0.35)) {
      this.addAttribute(rng, id, "employee.childrenCount", rng.int(0, 4), { applicability: forever, createdDay });
    }
    if (rng.chance(0.2)) {
      this.addAttribute(rng, id, "employee.commuteDistanceKm", Math.round(rng.next() * 600) / 10, { applicability: null, createdDay });
    }
    if (rng.chance(0.1)) {
      this.addAttribute(rng, id, "employee.badgeNumber", `B-${String(rng.int(0, 999_999)).padStart(6, "0")}`, { applicability: null, createdDay });
    }
    // company cars come and go: time-bounded values, an older car ended the day before the new one
    const last = stints[stints.length - 1]!;
    if (kind === "active" && last.start < this.today - 60 && rng.chance(0.12)) {
      const span = this.today - last.start;
      let carStart = last.start + rng.int(0, Math.max(0, span - 30));
      if (span > 400 && rng.chance(0.4)) {
        const earlierStart = last.start + rng.int(0, Math.floor(span / 3));
        carStart = Math.max(carStart, earlierStart + 60);
        this.addAttribute(rng, id, "employee.companyCar", this.car(rng, country), {
          applicability: { start: this.date(earlierStart), end: this.date(carStart - 1) },
          createdDay: earlierStart,
        });
      }
      this.addAttribute(rng, id, "employee.companyCar", this.car(rng, country), {
        applicability: { start: this.date(carStart), end: last.end === null ? null : this.date(last.end) },
        createdDay: carStart,
      });
    }
  }

  protected car(rng: Random, country: string): { model: string; licensePlate: string; fiscalHorsePower?: number } {
    const letters = () => String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25));
    const model = rng.pick(CAR_MODELS);
    if (country === "FRA") {
      return { model, licensePlate: flat`${letters()}-${String(rng.int(1, 999)).padStart(3, "0")}-${letters()}`, fiscalHorsePower: rng.int(4, 11) };
    }
    if (country === "GBR") return { model, licensePlate: flat`${letters()}${rng.int(10, 74)} ${letters()}${String.fromCharCode(65 + rng.int(0, 25))}` };
    return { model, licensePlate: flat`${rng.int(1, 9)}${letters()}${String.fromCharCode(65 + rng.int(0, 25))}${rng.int(100, 999)}` };
  }

  protected addProbation(rng: Random, employmentId: string, stint: Stint, createdDay: number): void {
    let initial = stint.start + rng.pick(PROBATION_DAYS);
    if (stint.end !== null) initial = Math.min(initial, stint.end);
    let extended: number | null = null;
    if (rng.chance(0.25)) {
      extended = initial + rng.int(30, 90);
      if (stint.end !== null) extended = Math.min(extended, stint.end);
      if (extended <= initial) extended = null;
    }
    this.probationaryPeriods.push({
      id: String(this.probationaryPeriods.length + 1),
      employmentId,
      initialEndsOn: this.date(initial),
      extendedEndsOn: extended === null ? null : this.date(extended),
      ...this.stamp(createdDay, rng),
    });
  }

  protected addPersonalRecord(
    rng: Random,
    index: number,
    pool: NamePool,
    gender: "female" | "male" | "neutral",
    birthDay: number,
    country: string,
    emailGiven: string | null,
    family: string,
    stamps: Stamped,
  ): void {
    let legalGender: EmployeePersonalRecord["legalGender"];
    let title: EmployeePersonalRecord["title"];
    const r = rng.next();
    if (gender === "neutral") {
      legalGender = r < 0.4 ? "diverse" : r < 0.7 ? "unknown" : r < 0.85 ? "female" : "male";
      title = "unknown";
    } else {
      legalGender = r < 0.95 ? gender : r < 0.98 ? "unknown" : "diverse";
      title = legalGender === "female" ? (rng.chance(0.85) ? "miss" : "unknown") : legalGender === "male" ? (rng.chance(0.9) ? "mister" : "unknown") : "unknown";
    }
    const birthDate = rng.chance(0.04) ? null : this.date(birthDay);
    const { month } = this.days.monthDay(birthDay);
    const year = this.days.year(birthDay);

    let insuranceNumber: EmployeePersonalRecord["insuranceNumber"];
    let bankAccount: EmployeePersonalRecord["bankAccount"];
    if (country === "FRA") {
      const sex = legalGender === "female" ? 2 : legalGender === "male" ? 1 : rng.chance(0.5) ? 1 : 2;
      insuranceNumber = { format: "frenchSSN", value: frenchSsn(rng, { sex, birthYear: year, birthMonth: month, bornInFrance: pool.nationality === "FRA" || rng.chance(0.3) }) };
      const bank = rng.pick(BANKS.FRA);
      bankAccount = { format: "iban", bankName: bank.name, accountIdentifier: frenchIban(rng, bank.code), bankIdentifier: rng.chance(0.9) ? bank.bic : null };
    } else if (country === "GBR") {
      insuranceNumber = { format: "other", value: britishNino(rng) };
      const bank = rng.pick(BANKS.GBR);
      bankAccount = { format: "iban", bankName: bank.name, accountIdentifier: britishIban(rng, bank.code), bankIdentifier: rng.chance(0.9) ? bank.bic : null };
    } else {
      insuranceNumber = { format: "other", value: usSsn(rng) };
      // US accounts have no IBAN: account number and ABA routing number
      bankAccount = { format: "other", bankName: rng.pick(BANKS.USA).name, accountIdentifier: usAccountNumber(rng), bankIdentifier: abaRoutingNumber(rng) };
    }

    const n = rng.next();
    const nationalitiesCountryCodes = n < 0.06 ? [] : n < 0.3 ? [country] : [pool.nationality];
    const id = String(index + 1);
    this.personalRecords.push({
      id,
      employeeId: id,
      title,
      legalGender,
      birthDate,
      insuranceNumber,
      nationalitiesCountryCodes,
      bankAccount,
      phoneNumber: rng.chance(0.75) ? this.phoneNumber(country, 0, rng) : null,
      email:
        emailGiven !== null && rng.chance(0.6)
          ? flat`${emailPart(emailGiven)}.${emailPart(family)}${rng.int(1, 99)}@${rng.pick(PERSONAL_MAIL_DOMAINS)}`
          : null,
      ...stamps,
    });
  }
}

const PHONE_SEPARATORS = [" ", " ", ".", "-"] as const;
/** by establishment index: New York, Chicago, Denver, San Francisco */
const US_AREA_CODES: Readonly<Record<number, readonly string[]>> = { 4: ["212", "646"], 5: ["312", "773"], 6: ["303", "720"], 7: ["415", "628"] };
/** shared by every timeless attribute; frozen so that an in-place edit fails loudly instead of changing them all */
const FOREVER = Object.freeze({ start: null, end: null });
const SHIRT_SIZES = ["XS", "S", "M", "L", "XL", "XXL"] as const;
const RELATIONSHIPS = ["partner", "parent", "sibling", "child", "friend"] as const;
const PROBATION_DAYS = [30, 60, 90, 120, 180] as const;
const PERSONAL_MAIL_DOMAINS = ["mail.example", "courriel.example", "post.example"] as const;
const CAR_MODELS = ["Renault Mégane E-Tech", "Peugeot e-208", "Tesla Model 3", "Škoda Enyaq", "Volkswagen ID.4", "Citroën ë-C4", "Kia Niro EV"] as const;
const POSITION_NOTES = [
  "Promoted after the annual review.",
  "Transfer requested by the employee.",
  "Interim assignment while the team lead is on parental leave.",
  "Relocation package approved; see the signed amendment.",
  "Mobilité interne validée en comité carrières.",
  "Part-time arrangement agreed for one year (80 %).",
] as const;
