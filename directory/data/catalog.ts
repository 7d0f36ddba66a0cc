/**
 * The fixed part of the demo company: legal entities, establishments, the department tree,
 * job families, templates and taxonomies. `generate.ts` turns these into records with ids and
 * timestamps, and draws the people on top of them.
 */

export type Family = "exec" | "eng" | "product" | "sales" | "marketing" | "finance" | "people" | "legal";

export interface LegalEntitySpec {
  legalName: string;
  remoteId: string;
  countryCode: string;
  currencyCode: string;
  /** how the tax number is drawn; its published format is `franceSIREN` for French ones, else `other` */
  taxNumber: "siren" | "britishCompanyNumber" | "usEin" | "swissUid";
  /** a documented industry format (`other`, `franceAPE`, `spainCNAE`, `germanyWZ`, `usaNAICS`) */
  industry: { format: string; value: string };
  archived: boolean;
  /** days after the founding day */
  createdAfter: number;
}

/**
 * Three active entities in three countries and currencies, and one archived entity which, as the
 * archiving rule demands, has no establishment left.
 */
export const LEGAL_ENTITIES: readonly LegalEntitySpec[] = [
  {
    legalName: "Lumière Systèmes SAS",
    remoteId: "LE-FR-01",
    countryCode: "FRA",
    currencyCode: "EUR",
    taxNumber: "siren",
    industry: { format: "franceAPE", value: "6201Z" },
    archived: false,
    createdAfter: 0,
  },
  {
    legalName: "Lumière Systems UK Ltd",
    remoteId: "LE-GB-01",
    countryCode: "GBR",
    currencyCode: "GBP",
    taxNumber: "britishCompanyNumber",
    // a UK SIC code: the interface has no British format
    industry: { format: "other", value: "62012" },
    archived: false,
    createdAfter: 120,
  },
  {
    legalName: "Lumière Systems Inc.",
    remoteId: "LE-US-01",
    countryCode: "USA",
    currencyCode: "USD",
    taxNumber: "usEin",
    industry: { format: "usaNAICS", value: "541511" },
    archived: false,
    createdAfter: 200,
  },
  {
    legalName: "Lumière Schweiz AG",
    remoteId: "LE-CH-01",
    countryCode: "CHE",
    currencyCode: "CHF",
    taxNumber: "swissUid",
    // a NOGA code: the interface has no Swiss format
    industry: { format: "other", value: "620100" },
    archived: true,
    createdAfter: 900,
  },
];

export interface EstablishmentSpec {
  name: string;
  remoteId: string;
  /** 1-based index into LEGAL_ENTITIES */
  legalEntity: number;
  isHeadquarters: boolean;
  address: { addressLines: string[]; postalCode: string; locality: string; administrativeArea: string; countryCode: string };
  timezoneId: string;
  archived: boolean;
  /** share of the workforce hired here (archived establishments get none) */
  weight: number;
  createdAfter: number;
}

/**
 * Eight active establishments, each in its own IANA time zone (overseas France and four US zones
 * give clients time-zone work to do), and one closed establishment with nobody attached.
 * Establishment 1 is the Paris headquarters, the largest site: the restricted demo client sees
 * only it.
 */
export const ESTABLISHMENTS: readonly EstablishmentSpec[] = [
  {
    name: "Paris – Siège social",
    remoteId: "EST-PAR",
    legalEntity: 1,
    isHeadquarters: true,
    address: { addressLines: ["18 rue de la Fontaine-au-Roi", "Bâtiment B"], postalCode: "75011", locality: "Paris", administrativeArea: "Île-de-France", countryCode: "FRA" },
    timezoneId: "Europe/Paris",
    archived: false,
    weight: 34,
    createdAfter: 0,
  },
  {
    name: "Saint-Denis (La Réunion)",
    remoteId: "EST-RUN",
    legalEntity: 1,
    isHeadquarters: false,
    address: { addressLines: ["42 rue Jean-Chatel"], postalCode: "97400", locality: "Saint-Denis", administrativeArea: "La Réunion", countryCode: "FRA" },
    timezoneId: "Indian/Reunion",
    archived: false,
    weight: 6,
    createdAfter: 150,
  },
  {
    name: "Fort-de-France",
    remoteId: "EST-FDF",
    legalEntity: 1,
    isHeadquarters: false,
    address: { addressLines: ["7 boulevard du Général de Gaulle"], postalCode: "97200", locality: "Fort-de-France", administrativeArea: "Martinique", countryCode: "FRA" },
    timezoneId: "America/Martinique",
    archived: false,
    weight: 5,
    createdAfter: 180,
  },
  {
    name: "London",
    remoteId: "EST-LON",
    legalEntity: 2,
    isHeadquarters: true,
    address: { addressLines: ["Unit 4", "21 Tabernacle Street"], postalCode: "EC2A 4DE", locality: "London", administrativeArea: "Greater London", countryCode: "GBR" },
    timezoneId: "Europe/London",
    archived: false,
    weight: 17,
    createdAfter: 120,
  },
  {
    name: "New York",
    remoteId: "EST-NYC",
    legalEntity: 3,
    isHeadquarters: true,
    address: { addressLines: ["350 Hudson Street", "Floor 9"], postalCode: "10014", locality: "New York", administrativeArea: "NY", countryCode: "USA" },
    timezoneId: "America/New_York",
    archived: false,
    weight: 15,
    createdAfter: 200,
  },
  {
    name: "Chicago",
    remoteId: "EST-CHI",
    legalEntity: 3,
    isHeadquarters: false,
    address: { addressLines: ["222 West Adams Street", "Suite 1400"], postalCode: "60606", locality: "Chicago", administrativeArea: "IL", countryCode: "USA" },
    timezoneId: "America/Chicago",
    archived: false,
    weight: 8,
    createdAfter: 240,
  },
  {
    name: "Denver",
    remoteId: "EST-DEN",
    legalEntity: 3,
    isHeadquarters: false,
    address: { addressLines: ["1600 Wynkoop Street"], postalCode: "80202", locality: "Denver", administrativeArea: "CO", countryCode: "USA" },
    timezoneId: "America/Denver",
    archived: false,
    weight: 6,
    createdAfter: 260,
  },
  {
    name: "San Francisco",
    remoteId: "EST-SFO",
    legalEntity: 3,
    isHeadquarters: false,
    address: { addressLines: ["535 Mission Street", "14th Floor"], postalCode: "94105", locality: "San Francisco", administrativeArea: "CA", countryCode: "USA" },
    timezoneId: "America/Los_Angeles",
    archived: false,
    weight: 9,
    createdAfter: 300,
  },
  {
    name: "Lyon Part-Dieu (fermé)",
    remoteId: "EST-LYS",
    legalEntity: 1,
    isHeadquarters: false,
    address: { addressLines: ["12 boulevard Vivier-Merle"], postalCode: "69003", locality: "Lyon", administrativeArea: "Auvergne-Rhône-Alpes", countryCode: "FRA" },
    timezoneId: "Europe/Paris",
    archived: true,
    weight: 0,
    createdAfter: 90,
  },
];

/** a title on a career ladder: English, French, and the qualification rank (1-3) it maps to */
export type LadderStep = readonly [en: string, fr: string, rank: number];

export interface DepartmentSpec {
  name: string;
  /** used for the French title of the department head */
  fr: string;
  /** 1-based index of the parent in DEPARTMENTS */
  parent: number | null;
  family: Family;
  archived: boolean;
  /** titles specific to this department, replacing the family's ladder */
  ladder?: readonly LadderStep[];
}

const d = (name: string, fr: string, parent: number | null, family: Family, extra: Partial<DepartmentSpec> = {}): DepartmentSpec => ({
  name,
  fr,
  parent,
  family,
  archived: false,
  ...extra,
});

/**
 * Five levels deep. Parents come before their children, so ids grow down the tree. The two
 * archived departments are leaves and nobody works in them.
 */
export const DEPARTMENTS: readonly DepartmentSpec[] = [
  d("Executive Office", "Direction générale", null, "exec"),
  d("Technology", "Technologie", 1, "eng"),
  d("Platform Engineering", "Ingénierie plateforme", 2, "eng"),
  d("Core Services", "Services cœur", 3, "eng"),
  d("Identity & Access", "Identités et accès", 4, "eng"),
  d("Data Pipelines", "Flux de données", 4, "eng", {
    ladder: [["Junior Data Engineer", "Ingénieur données junior", 1], ["Data Engineer", "Ingénieur données", 2], ["Senior Data Engineer", "Ingénieur données senior", 3], ["Principal Data Engineer", "Ingénieur données principal", 3]],
  }),
  d("Site Reliability", "Fiabilité des sites", 3, "eng", {
    ladder: [["Operations Engineer", "Ingénieur d'exploitation", 1], ["Site Reliability Engineer", "Ingénieur fiabilité", 2], ["Senior Site Reliability Engineer", "Ingénieur fiabilité senior", 3], ["Infrastructure Architect", "Architecte infrastructure", 3]],
  }),
  d("Product Engineering", "Ingénierie produit", 2, "eng"),
  d("Web Applications", "Applications web", 8, "eng"),
  d("Mobile Applications", "Applications mobiles", 8, "eng", {
    ladder: [["Junior Mobile Developer", "Développeur mobile junior", 1], ["iOS Developer", "Développeur iOS", 2], ["Android Developer", "Développeur Android", 2], ["Senior Mobile Developer", "Développeur mobile senior", 3]],
  }),
  d("Quality Assurance", "Assurance qualité", 2, "eng", {
    ladder: [["QA Analyst", "Analyste qualité", 1], ["QA Engineer", "Ingénieur qualité", 2], ["Test Automation Engineer", "Ingénieur automatisation des tests", 2], ["QA Lead", "Responsable qualité logicielle", 3]],
  }),
  d("Product & Design", "Produit et design", 1, "product"),
  d("Product Management", "Gestion de produit", 12, "product"),
  d("User Experience Design", "Design d'expérience utilisateur", 12, "product", {
    ladder: [["Junior UX Designer", "Designer UX junior", 1], ["UX Designer", "Designer UX", 2], ["Senior UX Designer", "Designer UX senior", 3], ["Lead UX Researcher", "Responsable recherche utilisateur", 3]],
  }),
  d("Sales", "Ventes", 1, "sales"),
  d("Sales EMEA", "Ventes EMEA", 15, "sales"),
  d("Sales France", "Ventes France", 16, "sales"),
  d("Sales UK & Ireland", "Ventes Royaume-Uni et Irlande", 16, "sales"),
  d("Sales North America", "Ventes Amérique du Nord", 15, "sales"),
  d("Customer Success", "Succès client", 15, "sales", {
    ladder: [["Customer Support Specialist", "Chargé de support client", 1], ["Customer Success Manager", "Responsable succès client", 2], ["Senior Customer Success Manager", "Responsable succès client senior", 3], ["Customer Success Architect", "Architecte succès client", 3]],
  }),
  d("Marketing", "Marketing", 1, "marketing"),
  d("Brand & Communication", "Marque et communication", 21, "marketing"),
  d("Growth Marketing", "Marketing de croissance", 21, "marketing"),
  d("Finance", "Finance", 1, "finance"),
  d("Accounting", "Comptabilité", 24, "finance"),
  d("Financial Planning & Analysis", "Contrôle de gestion", 24, "finance"),
  d("People & Culture", "Ressources humaines", 1, "people"),
  d("Talent Acquisition", "Acquisition de talents", 27, "people"),
  d("Payroll & Benefits", "Paie et avantages", 27, "people"),
  d("Legal & Compliance", "Juridique et conformité", 1, "legal"),
  d("Legacy Support", "Support historique", 2, "eng", { archived: true }),
  d("Print Shop", "Imprimerie", 22, "marketing", { archived: true }),
];

/** names of the extra squads that larger companies get below the leaf departments */
export const SQUAD_NAMES = [
  "Aurora", "Boréal", "Cassiopée", "Draco", "Éclipse", "Fénix", "Galilée", "Hélios", "Io", "Jupiter",
  "Kepler", "Lyra", "Méridien", "Nova", "Orion", "Pégase", "Quasar", "Rigel", "Sirius", "Titan",
  "Umbra", "Véga", "Xénon", "Zénith",
] as const;

export interface FamilySpec {
  profession: string;
  fr: string;
  ladder: readonly LadderStep[];
  /** cost-centre label (1-based index into the cost-centre taxonomy labels) */
  costCentre: number;
}

export const FAMILIES: Record<Family, FamilySpec> = {
  eng: {
    profession: "Software engineering",
    fr: "développement logiciel",
    ladder: [["Junior Software Engineer", "Ingénieur logiciel junior", 1], ["Software Engineer", "Ingénieur logiciel", 2], ["Senior Software Engineer", "Ingénieur logiciel senior", 3], ["Staff Engineer", "Ingénieur principal", 3]],
    costCentre: 2,
  },
  product: {
    profession: "Product management",
    fr: "produit",
    ladder: [["Associate Product Manager", "Chef de produit associé", 1], ["Product Manager", "Chef de produit", 2], ["Senior Product Manager", "Chef de produit senior", 3], ["Group Product Manager", "Responsable de groupe produit", 3]],
    costCentre: 3,
  },
  sales: {
    profession: "Sales",
    fr: "ventes",
    ladder: [["Sales Development Representative", "Chargé de développement commercial", 1], ["Account Executive", "Ingénieur commercial", 2], ["Senior Account Executive", "Ingénieur commercial senior", 3], ["Key Account Manager", "Responsable grands comptes", 3]],
    costCentre: 4,
  },
  marketing: {
    profession: "Marketing",
    fr: "marketing",
    ladder: [["Marketing Assistant", "Assistant marketing", 1], ["Marketing Specialist", "Chargé de marketing", 2], ["Content Strategist", "Responsable éditorial", 2], ["Senior Marketing Manager", "Responsable marketing senior", 3]],
    costCentre: 6,
  },
  finance: {
    profession: "Finance",
    fr: "finance",
    ladder: [["Accounting Assistant", "Assistant comptable", 1], ["Accountant", "Comptable", 2], ["Financial Controller", "Contrôleur de gestion", 3], ["Senior Financial Analyst", "Analyste financier senior", 3]],
    costCentre: 7,
  },
  people: {
    profession: "Human resources",
    fr: "ressources humaines",
    ladder: [["HR Assistant", "Assistant RH", 1], ["HR Business Partner", "Responsable RH de proximité", 2], ["Talent Acquisition Specialist", "Chargé de recrutement", 2], ["Payroll Manager", "Responsable paie", 3]],
    costCentre: 8,
  },
  legal: {
    profession: "Legal",
    fr: "juridique",
    ladder: [["Paralegal", "Assistant juridique", 1], ["Legal Counsel", "Juriste", 2], ["Compliance Officer", "Responsable conformité", 2], ["Senior Legal Counsel", "Juriste senior", 3]],
    costCentre: 7,
  },
  exec: {
    profession: "General management",
    fr: "direction générale",
    ladder: [["Executive Assistant", "Assistant de direction", 1], ["Office Manager", "Responsable des services généraux", 2], ["Chief of Staff", "Directeur de cabinet", 3], ["Strategy Director", "Directeur de la stratégie", 3]],
    costCentre: 1,
  },
};

export const FAMILY_ORDER: readonly Family[] = ["eng", "product", "sales", "marketing", "finance", "people", "legal", "exec"];
export const RANK_NAMES = ["Associate", "Confirmed", "Expert"] as const;

export interface TemplateSpec {
  title: string;
  t9n: Record<string, string>;
  /** 1-based indexes into LEGAL_ENTITIES */
  legalEntities: number[];
  term: "permanent" | "fixed";
  /** documented audiences used here: interns are `student`s, contractors `external` */
  audience: "employee" | "student" | "external";
}

export const TEMPLATES: readonly TemplateSpec[] = [
  { title: "CDI – Contrat à durée indéterminée", t9n: { "fr-FR": "Contrat à durée indéterminée", "en-GB": "Permanent contract" }, legalEntities: [1], term: "permanent", audience: "employee" },
  { title: "CDD – Contrat à durée déterminée", t9n: { "fr-FR": "Contrat à durée déterminée", "en-GB": "Fixed-term contract" }, legalEntities: [1], term: "fixed", audience: "employee" },
  { title: "Convention de stage", t9n: { "fr-FR": "Convention de stage", "en-GB": "Internship agreement" }, legalEntities: [1], term: "fixed", audience: "student" },
  { title: "Permanent employment contract", t9n: { "en-GB": "Permanent employment contract", "fr-FR": "Contrat de travail permanent (Royaume-Uni)" }, legalEntities: [2], term: "permanent", audience: "employee" },
  { title: "Fixed-term employment contract", t9n: { "en-GB": "Fixed-term employment contract", "fr-FR": "Contrat à durée déterminée (Royaume-Uni)" }, legalEntities: [2], term: "fixed", audience: "employee" },
  { title: "At-will employment agreement", t9n: { "en-US": "At-will employment agreement", "fr-FR": "Contrat de travail « at-will » (États-Unis)" }, legalEntities: [3], term: "permanent", audience: "employee" },
  { title: "Seasonal employment agreement", t9n: { "en-US": "Seasonal employment agreement", "fr-FR": "Contrat saisonnier (États-Unis)" }, legalEntities: [3], term: "fixed", audience: "employee" },
  { title: "Independent contractor agreement", t9n: { "en-GB": "Independent contractor agreement", "en-US": "Independent contractor agreement", "fr-FR": "Contrat de prestation indépendante" }, legalEntities: [2, 3], term: "fixed", audience: "external" },
  { title: "Internship agreement", t9n: { "en-GB": "Internship agreement", "en-US": "Internship agreement", "fr-FR": "Convention de stage (international)" }, legalEntities: [2, 3], term: "fixed", audience: "student" },
];

export interface OccupationCategorySpec {
  title: string;
  t9n: Record<string, string>;
  /** 1-based establishment indexes; null = every establishment */
  establishments: number[] | null;
}

export const OCCUPATION_CATEGORIES: readonly OccupationCategorySpec[] = [
  { title: "Cadre", t9n: { "fr-FR": "Cadre", "en-GB": "Managerial staff (France)" }, establishments: [1, 2, 3] },
  { title: "ETAM", t9n: { "fr-FR": "Employés, techniciens et agents de maîtrise", "en-GB": "Employees, technicians and supervisors (France)" }, establishments: [1, 2, 3] },
  { title: "Salaried staff", t9n: { "en-GB": "Salaried staff", "fr-FR": "Salariés mensualisés (Royaume-Uni)" }, establishments: [4] },
  { title: "Exempt", t9n: { "en-US": "Exempt", "fr-FR": "Salariés exemptés (États-Unis)" }, establishments: [5, 6, 7, 8] },
  { title: "Non-exempt", t9n: { "en-US": "Non-exempt", "fr-FR": "Salariés non exemptés (États-Unis)" }, establishments: [5, 6, 7, 8] },
  { title: "Intern", t9n: { "en-GB": "Intern", "fr-FR": "Stagiaire" }, establishments: null },
  { title: "Contractor", t9n: { "en-GB": "Contractor", "fr-FR": "Prestataire" }, establishments: null },
  { title: "Senior leadership", t9n: { "en-GB": "Senior leadership", "fr-FR": "Comité de direction" }, establishments: null },
];
/** 1-based indexes of the categories above, by role */
export const CATEGORY = { cadre: 1, etam: 2, salaried: 3, exempt: 4, nonExempt: 5, intern: 6, contractor: 7, leadership: 8 } as const;

export interface TaxonomySpec {
  name: string;
  t9n: Record<string, string>;
  sortLabelsBy: "id" | "name";
  labels: ReadonlyArray<{ name: string; remoteId: string | null; t9n: Record<string, string>; archived?: boolean }>;
}

export const TAXONOMIES: readonly TaxonomySpec[] = [
  {
    name: "Cost centres",
    t9n: { "fr-FR": "Centres de coûts", "de-DE": "Kostenstellen", "en-US": "Cost centers" },
    sortLabelsBy: "name",
    labels: [
      { name: "CC-1000 Executive", remoteId: "CC-1000", t9n: { "fr-FR": "CC-1000 Direction" } },
      { name: "CC-2100 Engineering", remoteId: "CC-2100", t9n: { "fr-FR": "CC-2100 Ingénierie" } },
      { name: "CC-2200 Product & Design", remoteId: "CC-2200", t9n: { "fr-FR": "CC-2200 Produit et design" } },
      { name: "CC-3100 Sales", remoteId: "CC-3100", t9n: { "fr-FR": "CC-3100 Ventes" } },
      { name: "CC-3900 Sales (former EMEA split)", remoteId: "CC-3900", t9n: { "fr-FR": "CC-3900 Ventes (ancien découpage EMEA)" }, archived: true },
      { name: "CC-4000 Marketing", remoteId: "CC-4000", t9n: { "fr-FR": "CC-4000 Marketing" } },
      { name: "CC-5000 Finance & Legal", remoteId: "CC-5000", t9n: { "fr-FR": "CC-5000 Finance et juridique" } },
      { name: "CC-6000 People", remoteId: null, t9n: { "fr-FR": "CC-6000 Ressources humaines" } },
    ],
  },
  {
    name: "Skills",
    t9n: { "fr-FR": "Compétences", "de-DE": "Fähigkeiten" },
    sortLabelsBy: "name",
    labels: [
      { name: "TypeScript", remoteId: "SK-TS", t9n: {} },
      { name: "Kubernetes", remoteId: "SK-K8S", t9n: {} },
      { name: "Negotiation", remoteId: "SK-NEG", t9n: { "fr-FR": "Négociation commerciale" } },
      { name: "Public speaking", remoteId: null, t9n: { "fr-FR": "Prise de parole en public" } },
      { name: "Financial modelling", remoteId: "SK-FIN", t9n: { "fr-FR": "Modélisation financière", "en-US": "Financial modeling" } },
      { name: "Delphi", remoteId: "SK-DPH", t9n: {}, archived: true },
    ],
  },
  {
    name: "Office perks",
    t9n: { "fr-FR": "Avantages au bureau" },
    sortLabelsBy: "id",
    labels: [
      { name: "Bike-to-work scheme", remoteId: null, t9n: { "fr-FR": "Forfait mobilités durables" } },
      { name: "Gym membership", remoteId: null, t9n: { "fr-FR": "Abonnement salle de sport" } },
      { name: "Paper luncheon vouchers", remoteId: "PERK-LV", t9n: { "fr-FR": "Tickets-restaurant papier" }, archived: true },
    ],
  },
];

export const WORKING_TIME_ARRANGEMENTS = { fullTime35h: "1", partTime80: "2" } as const;

export const BANKS = {
  FRA: [
    { name: "BNP Paribas", code: "30004", bic: "BNPAFRPPXXX" },
    { name: "Société Générale", code: "30003", bic: "SOGEFRPPXXX" },
    { name: "Crédit Agricole", code: "30006", bic: "AGRIFRPPXXX" },
    { name: "La Banque Postale", code: "20041", bic: "PSSTFRPPPAR" },
  ],
  GBR: [
    { name: "Barclays", code: "BARC", bic: "BARCGB22" },
    { name: "HSBC UK", code: "HBUK", bic: "HBUKGB4B" },
    { name: "Lloyds Bank", code: "LOYD", bic: "LOYDGB2L" },
  ],
  USA: [{ name: "JPMorgan Chase" }, { name: "Bank of America" }, { name: "Wells Fargo" }],
} as const;
