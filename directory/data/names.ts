/**
 * Name pools of the demo company. They are deliberately hard on clients: accents, ligatures,
 * hyphens, apostrophes, spaces inside family names and Vietnamese diacritics, so that search,
 * sorting, e-mail derivation and display get exercised on real-looking people.
 */

export type NameGender = "female" | "male" | "neutral";

export interface NamePool {
  /** language tag of the names */
  language: string;
  /** alpha-3 nationality most people with these names hold */
  nationality: string;
  female: readonly string[];
  male: readonly string[];
  /** given names worn by any gender */
  neutral: readonly string[];
  family: readonly string[];
}

export const NAME_POOLS = {
  fr: {
    language: "fr-FR",
    nationality: "FRA",
    female: ["Chloé", "Léa", "Anaïs", "Hélène", "Maëlle", "Marie-Claire", "Éloïse", "Inès", "Béatrice", "Geneviève", "Zoë", "Anne-Sophie", "Océane", "Cécile"],
    male: ["François", "Jérôme", "Théo", "Noël", "Jean-Baptiste", "Loïc", "Étienne", "Benoît", "Raphaël", "Hervé", "Gaëtan", "Jean-François", "Mathéo", "Timothée"],
    neutral: ["Camille", "Dominique", "Sacha", "Claude"],
    family: ["Saint-Exupéry", "Lefèvre", "Dubois", "Moreau", "Girard", "Bérard", "Lévêque", "Fontaine", "Mercier", "Durand-Lacroix", "Rousseau", "Duchêne", "de Villiers", "Lemaître", "Bénard", "Châtelain", "Le Gall", "Desprès"],
  },
  enGB: {
    language: "en-GB",
    nationality: "GBR",
    female: ["Olivia", "Charlotte", "Amelia", "Imogen", "Harriet", "Zoë", "Eleanor", "Bethan", "Mary-Jane"],
    male: ["Oliver", "Harry", "George", "Alistair", "Rhys", "Callum", "Hamish", "Nathaniel"],
    neutral: ["Alex", "Charlie", "Robin", "Jordan"],
    family: ["O'Connor", "Smith-Jones", "Whitaker", "Fairbanks", "Ellison", "Hughes", "Clarke", "Davies", "MacDonald", "Blackwood", "O'Brien", "Ashworth", "Featherstonehaugh", "Lloyd-Webber"],
  },
  enUS: {
    language: "en-US",
    nationality: "USA",
    female: ["Madison", "Ashley", "Brianna", "Kayla", "Jessica", "Mary-Kate", "Savannah", "Abigail"],
    male: ["Tyler", "Jackson", "DeShawn", "Brandon", "Hunter", "Cody", "Marcus", "Ezekiel"],
    neutral: ["Taylor", "Riley", "Morgan", "Casey"],
    family: ["Johnson", "Williams", "Miller", "Washington", "Brooks", "Carter", "D'Angelo", "McAllister", "Van der Berg", "O'Malley", "Jefferson", "Kowalski"],
  },
  es: {
    language: "es-ES",
    nationality: "ESP",
    female: ["María José", "Lucía", "Begoña", "Ángela", "Núria", "Inés", "Pilar", "Mónica", "Sofía"],
    male: ["José-María", "Íñigo", "Álvaro", "Jesús", "Joaquín", "Andrés", "Ramón", "Héctor", "Martín"],
    neutral: ["Ariel", "Guadalupe"],
    family: ["García", "Núñez", "Fernández", "Rodríguez-Peña", "Martínez", "Ibáñez", "de la Fuente", "Muñoz", "Peña", "Gutiérrez", "Sánchez", "López de Haro"],
  },
  de: {
    language: "de-DE",
    nationality: "DEU",
    female: ["Anneliese", "Käthe", "Lena", "Sophie", "Grete", "Hanna-Lena", "Jördis", "Ursula"],
    male: ["Jürgen", "Jörg", "Björn", "Lukas", "Maximilian", "Günther", "Uwe", "Hans-Peter"],
    neutral: ["Kim", "Luca"],
    family: ["Müller", "Schäfer", "Groß", "Weiß", "Köhler", "Meyer-Lübke", "Schröder", "Bäcker", "Vogel", "von Bülow", "Krüger", "Hoffmann"],
  },
  it: {
    language: "it-IT",
    nationality: "ITA",
    female: ["Giulia", "Chiara", "Francesca", "Beatrice", "Ludovica", "Maria Grazia"],
    male: ["Nicolò", "Niccolò", "Luca", "Matteo", "Gianluca", "Pierluigi", "Salvatore"],
    neutral: ["Andrea", "Celeste"],
    family: ["D'Angelo", "Rossi", "Bianchi", "De Luca", "Esposito", "Ferrari", "Di Stefano", "Colombo", "Lo Russo", "D'Alessandro", "Mancini"],
  },
  vi: {
    language: "vi-VN",
    nationality: "VNM",
    female: ["Thảo", "Linh", "Hương", "Mai", "Ngọc Anh", "Phương"],
    male: ["Đức", "Minh", "Quang", "Tuấn", "Hoàng Nam", "Khải"],
    neutral: ["An", "Khánh"],
    family: ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Vũ", "Đặng", "Bùi"],
  },
  no: {
    language: "nb-NO",
    nationality: "NOR",
    female: ["Ingrid", "Åse", "Sølvi", "Kari", "Astrid", "Ragnhild"],
    male: ["Bjørn", "Øyvind", "Håkon", "Sindre", "Ole-Petter", "Tørris"],
    neutral: ["Eli", "Kai"],
    family: ["Ødegaard", "Bråten", "Søreide", "Hansen", "Lund", "Kjærgaard", "Haugen", "Østby"],
  },
  ga: {
    language: "ga-IE",
    nationality: "IRL",
    female: ["Siobhán", "Aoife", "Niamh", "Saoirse", "Róisín", "Gráinne"],
    male: ["Seán", "Pádraig", "Cillian", "Eoin", "Darragh", "Tadhg"],
    neutral: ["Ciarán", "Rory"],
    family: ["O'Sullivan", "Byrne", "Kavanagh", "O'Neill", "MacCárthaigh", "Ó Briain", "Ní Dhomhnaill", "Fitzgerald"],
  },
  pt: {
    language: "pt-PT",
    nationality: "PRT",
    female: ["Conceição", "Leonor", "Ana-Sofia", "Beatriz", "Matilde"],
    male: ["João", "Gonçalo", "Tomás", "Vicente", "Luís"],
    neutral: ["Jordão"],
    family: ["Gonçalves", "Araújo", "Simões", "Magalhães", "Brandão", "Conceição", "Sá Carneiro"],
  },
  pl: {
    language: "pl-PL",
    nationality: "POL",
    female: ["Małgorzata", "Zuzanna", "Agnieszka", "Katarzyna", "Jadwiga"],
    male: ["Łukasz", "Paweł", "Wojciech", "Jędrzej", "Michał"],
    neutral: ["Sasza"],
    family: ["Nowak", "Wójcik", "Kowalczyk", "Mazur", "Krawczyk", "Woźniak", "Kaczmarek", "Gołąb"],
  },
} as const satisfies Record<string, NamePool>;

export type PoolKey = keyof typeof NAME_POOLS;

/** Which name pools people of an establishment's country are drawn from, with weights. */
export const POOL_WEIGHTS_BY_COUNTRY: Record<string, ReadonlyArray<readonly [PoolKey, number]>> = {
  FRA: [["fr", 55], ["es", 6], ["pt", 6], ["it", 6], ["de", 4], ["vi", 7], ["enGB", 3], ["pl", 4], ["no", 3], ["ga", 2], ["enUS", 4]],
  GBR: [["enGB", 45], ["ga", 12], ["fr", 6], ["pl", 8], ["it", 5], ["de", 5], ["es", 5], ["no", 4], ["vi", 3], ["pt", 3], ["enUS", 4]],
  USA: [["enUS", 50], ["es", 18], ["vi", 8], ["ga", 5], ["it", 6], ["de", 4], ["fr", 3], ["pl", 3], ["no", 3]],
};

const EXTRA_FOLDS: Record<string, string> = {
  ø: "o", Ø: "O", ß: "ss", æ: "ae", Æ: "AE", œ: "oe", Œ: "OE", đ: "d", Đ: "D", ł: "l", Ł: "L", ı: "i", þ: "th", ð: "d",
};

const foldCache = new Map<string, string>();

/**
 * ASCII-folds a name for an e-mail local part: accents removed, letters that do not decompose
 * (ø, ß, đ, ł...) transliterated, apostrophes and spaces dropped, hyphens kept, lower case.
 */
export function emailPart(name: string): string {
  let folded = foldCache.get(name);
  if (folded === undefined) {
    folded = name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[øØßæÆœŒđĐłŁıþð]/g, (ch) => EXTRA_FOLDS[ch] ?? ch)
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "");
    foldCache.set(name, folded);
  }
  return folded;
}
