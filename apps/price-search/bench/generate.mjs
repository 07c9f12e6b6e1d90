// The generated catalogue and queries of the search benches: deterministic, so every run (and every build
// compared) indexes the same 100,000 listings and asks the same queries.
import { writeFileSync } from 'node:fs';
import { NETWORKS } from '../dist/listing/networks.js';

// Deterministic pseudo-random numbers (mulberry32), so every run indexes the same catalogue and asks the same
// queries.
let seed = 20261122;
/** Restarts the sequence: the same calls then give the same feed and queries. */
export function resetRandom() {
  seed = 20261122;
}
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const FAMILIES = [
  {
    type: 'Mobile Phones',
    brands: [
      'Apple iPhone',
      'Samsung Galaxy',
      'Google Pixel',
      'OnePlus',
      'Motorola moto',
      'Xiaomi Redmi',
      'Sony Xperia',
      'Nokia',
    ],
    models: ['12', '13', '14', '15', '16', 'S23', 'S24', 'A15', 'A55', '7a', '8', '8a', '9', 'Note 13', 'g84', 'X5'],
    variants: ['64GB', '128GB', '256GB', '512GB'],
    colours: ['Black', 'Blue', 'Midnight', 'Starlight', 'Green', 'Silver'],
    price: [99, 1299],
  },
  {
    type: 'Laptops',
    brands: [
      'Lenovo ThinkPad',
      'Lenovo IdeaPad',
      'Dell XPS',
      'Dell Latitude',
      'HP Pavilion',
      'HP EliteBook',
      'ASUS Vivobook',
      'ASUS ROG',
      'Acer Aspire',
      'Apple MacBook Air',
      'Apple MacBook Pro',
      'Microsoft Surface Laptop',
    ],
    models: ['T480', 'T14', 'X1 Carbon', '13 9340', '7490', '15', '14', 'G14', '5', 'M1', 'M2', 'M3', '5 13.5'],
    variants: ['8GB 256GB', '16GB 512GB', '16GB 1TB', '32GB 1TB'],
    colours: ['Silver', 'Space Grey', 'Black', 'Graphite'],
    price: [199, 2499],
  },
  {
    type: 'Headphones',
    brands: [
      'Sony',
      'Bose',
      'Apple AirPods',
      'Sennheiser',
      'JBL',
      'Beats',
      'Soundcore by Anker',
      'Jabra',
      'Audio-Technica',
    ],
    models: [
      'WH-1000XM4',
      'WH-1000XM5',
      'WF-1000XM5',
      'QuietComfort 45',
      'QuietComfort Ultra',
      'Pro 2',
      'Max',
      'Momentum 4',
      'Tune 520BT',
      'Studio Pro',
      'Life Q30',
      'Elite 85t',
      'ATH-M50x',
    ],
    variants: ['Wireless Headphones', 'Noise Cancelling Earbuds', 'Over-Ear Headphones', 'On-Ear Headphones'],
    colours: ['Black', 'White', 'Silver', 'Blue', 'Midnight Blue'],
    price: [19, 549],
  },
  {
    type: 'Televisions',
    brands: ['Samsung', 'LG', 'Sony BRAVIA', 'Hisense', 'TCL', 'Philips', 'Panasonic'],
    models: ['43 Inch', '50 Inch', '55 Inch', '65 Inch', '75 Inch'],
    variants: ['4K HDR Smart TV', 'QLED 4K Smart TV', 'OLED 4K Smart TV', 'LED Full HD TV'],
    colours: ['Black', 'Titan Grey', 'Silver'],
    price: [179, 2999],
  },
  {
    type: 'Consoles',
    brands: [
      'Sony PlayStation 5',
      'Xbox Series X',
      'Xbox Series S',
      'Nintendo Switch',
      'Nintendo Switch OLED',
      'Steam Deck',
      'Meta Quest 3',
    ],
    models: ['Console', 'Slim', 'Digital Edition', 'Disc Edition', 'Bundle', 'Pro'],
    variants: ['512GB', '1TB', '2TB', '128GB'],
    colours: ['White', 'Black', 'Neon Red/Neon Blue'],
    price: [199, 749],
  },
  {
    type: 'Kitchen Appliances',
    brands: [
      'Ninja',
      'Tower',
      'Cosori',
      'Breville',
      "De'Longhi",
      'Russell Hobbs',
      'KitchenAid',
      'Kenwood',
      'Smeg',
      'Sage',
      'Instant',
    ],
    models: [
      'Air Fryer',
      'Dual Zone Air Fryer',
      'Espresso Machine',
      'Bean to Cup Coffee Machine',
      'Kettle',
      '4-Slice Toaster',
      'Stand Mixer',
      'Blender',
      'Multi-Cooker',
      'Pressure Cooker',
    ],
    variants: ['1.7L', '3.8L', '5.5L', '9.5L', '4.8L', '6L'],
    colours: ['Black', 'Stainless Steel', 'Cream', 'Red', 'Pastel Blue'],
    price: [19, 899],
  },
  {
    type: 'Vacuum Cleaners',
    brands: ['Dyson', 'Shark', 'Henry', 'Vax', 'iRobot Roomba', 'eufy', 'Hoover', 'Bosch'],
    models: [
      'V8',
      'V11',
      'V15 Detect',
      'Gen5detect',
      'Stratos',
      'Anti Hair Wrap',
      'HVR160',
      'Platinum',
      'Combo i5+',
      'RoboVac 11S',
      'H-Free 500',
    ],
    variants: ['Cordless Vacuum Cleaner', 'Upright Vacuum Cleaner', 'Robot Vacuum', 'Pet Vacuum'],
    colours: ['Nickel', 'Purple', 'Grey', 'Red'],
    price: [69, 899],
  },
  {
    type: 'Toys',
    brands: [
      'LEGO Star Wars',
      'LEGO Technic',
      'LEGO City',
      'LEGO Harry Potter',
      'LEGO Icons',
      'Barbie',
      'Hot Wheels',
      'Playmobil',
      'Tonies',
    ],
    models: [
      'Millennium Falcon',
      'Police Station',
      'Hogwarts Castle',
      'Lamborghini Sian',
      'Titanic',
      'Dreamhouse',
      'Track Set',
      'Toniebox',
    ],
    variants: ['Set', 'Building Kit', 'Playset', 'Starter Set'],
    colours: [''],
    price: [9, 649],
  },
  {
    type: 'Power Tools',
    brands: ['Bosch Professional', 'DeWalt', 'Makita', 'Ryobi ONE+', 'Milwaukee', 'Black+Decker'],
    models: ['18V Combi Drill', 'Impact Driver', 'Circular Saw', 'Jigsaw', 'Multi Sander', 'Angle Grinder'],
    variants: ['Body Only', '2 x 2.0Ah', '2 x 5.0Ah', 'Kit'],
    colours: [''],
    price: [29, 449],
  },
];
const CONDITIONS = ['new', 'new', 'new', 'used', 'refurbished'];
const DOMAINS = { amazon_uk: 'amazon', argos_uk: 'argos', currys_uk: 'currys', ebay_uk: 'ebay' };

export function generateFeed(path, count) {
  const lines = ['id\ttitle\tlink\tprice\tcondition\tavailability\tbrand\tproduct_type\tnetwork'];
  for (let index = 0; index < count; index += 1) {
    const family = pick(FAMILIES);
    const brand = pick(family.brands);
    const title = [brand, pick(family.models), pick(family.variants), pick(family.colours)].filter(Boolean).join(' ');
    const network = pick(NETWORKS);
    const condition = network === 'ebay_uk' ? pick(CONDITIONS) : 'new';
    const [low, high] = family.price;
    const pence = Math.round((low + random() * (high - low)) * 100);
    const price = `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')} GBP`;
    const availability = random() < 0.05 ? 'out_of_stock' : 'in_stock';
    const link = `https://${DOMAINS[network]}.example.co.uk/item/${index}`;
    lines.push(
      [`B${index}`, title, link, price, condition, availability, brand.split(' ')[0], family.type, network].join('\t'),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

export function generateQueries(count) {
  const budgets = [
    '',
    '',
    '',
    ' under £50',
    ' under £200',
    ' below 500 pounds',
    ' between £100 and £300',
    ' £1,000 max',
    ' <£80',
  ];
  const prefixes = ['', '', '', 'cheapest ', 'used ', 'refurbished ', 'new '];
  const queries = [];
  for (let index = 0; index < count; index += 1) {
    const family = pick(FAMILIES);
    const shape = random();
    let text;
    if (shape < 0.3) text = `${pick(family.brands)} ${pick(family.models)}`;
    else if (shape < 0.55) text = pick(family.brands);
    else if (shape < 0.8) text = `${pick(family.brands)} ${pick(family.variants)}`;
    else text = `${pick(family.models)} ${pick(family.colours)}`.trim();
    queries.push(`${pick(prefixes)}${text.toLowerCase()}${pick(budgets)}`);
  }
  return queries;
}
