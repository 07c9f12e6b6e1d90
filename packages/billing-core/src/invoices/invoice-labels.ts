/**
 * @module
 * The words printed on invoices and credit notes, in the languages customers use (ADR 1104).
 * The language follows the customer's locale, like the numbers; one without a table here falls
 * back to English. The compiler keeps every table complete.
 */

export interface InvoiceLabels {
  readonly invoice: string;
  readonly creditNote: string;
  readonly invoiceNumber: string;
  readonly creditNoteNumber: string;
  readonly transaction: string;
  readonly invoiceDate: string;
  readonly dueDate: string;
  readonly paidOn: string;
  readonly billingPeriod: string;
  readonly purchaseOrder: string;
  readonly creditNoteDate: string;
  readonly creditsInvoice: string;
  readonly from: string;
  readonly billTo: string;
  readonly description: string;
  readonly quantity: string;
  readonly unitPrice: string;
  readonly taxRate: string;
  readonly tax: string;
  readonly amount: string;
  readonly subtotal: string;
  readonly discount: string;
  readonly total: string;
  readonly creditApplied: string;
  readonly grandTotal: string;
  readonly amountPaid: string;
  readonly amountDue: string;
  readonly totalCredited: string;
  readonly totalRefunded: string;
  readonly paid: string;
  readonly due: string;
  readonly pastDue: string;
  readonly canceled: string;
  readonly credited: string;
  readonly refunded: string;
  readonly reason: string;
  readonly taxId: string;
  readonly companyNumber: string;
  readonly attention: string;
  /** The logo's text alternative; `{name}` is the seller's name. */
  readonly logoAlt: string;
  /** Before the seller's contact email. */
  readonly email: string;
  /** Printed on an unpaid invoice: how to pay, with `{amount}` and `{date}` filled in. */
  readonly payBy: string;
  /** Printed when an EU business was reverse charged (ADR 1430). */
  readonly reverseCharge: string;
  /** Before a VAT, GST or Japanese invoice registration number, by the identifier's country (ADR 1110). */
  readonly vatNumber: string;
  readonly gstNumber: string;
  readonly registrationNumber: string;
  /** The local name of each kind of tax, for the tax rows ("VAT 20%"). */
  readonly vat: string;
  readonly gst: string;
  readonly salesTax: string;
  readonly consumptionTax: string;
  /** The tax total under several rates' rows; `{name}` the tax's name. */
  readonly taxTotal: string;
  /** The date of supply, printed on an invoice without a billing period. */
  readonly supplyDate: string;
  /** The tax total in the seller's tax currency; `{name}` the tax's name, `{currency}` its code. */
  readonly taxInCurrency: string;
  /** How that total was converted: `{from}`, `{rate}`, `{to}`, `{source}`, `{date}`. */
  readonly convertedAt: string;
  /** The payment instructions block of a manual invoice. */
  readonly howToPay: string;
  readonly accountName: string;
  readonly accountNumber: string;
  readonly sortCode: string;
}

export const INVOICE_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type InvoiceLanguage = (typeof INVOICE_LANGUAGES)[number];

export const INVOICE_LABELS = {
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    invoiceNumber: 'Invoice number',
    creditNoteNumber: 'Credit note number',
    transaction: 'Transaction',
    invoiceDate: 'Invoice date',
    dueDate: 'Due date',
    paidOn: 'Paid on',
    billingPeriod: 'Billing period',
    purchaseOrder: 'Purchase order',
    creditNoteDate: 'Credit note date',
    creditsInvoice: 'Credits invoice',
    from: 'From',
    billTo: 'Bill to',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    taxRate: 'Tax rate',
    tax: 'Tax',
    amount: 'Amount',
    subtotal: 'Subtotal',
    discount: 'Discount',
    total: 'Total',
    creditApplied: 'Credit applied',
    grandTotal: 'Grand total',
    amountPaid: 'Amount paid',
    amountDue: 'Amount due',
    totalCredited: 'Total credited',
    totalRefunded: 'Total refunded',
    paid: 'Paid',
    due: 'Due',
    pastDue: 'Past due',
    canceled: 'Canceled',
    credited: 'Credited',
    refunded: 'Refunded',
    reason: 'Reason',
    taxId: 'Tax ID',
    companyNumber: 'Company no.',
    attention: 'Attn.',
    logoAlt: '{name} logo',
    email: 'Email',
    payBy: 'Please pay {amount} by {date}, quoting the invoice number.',
    reverseCharge:
      'Reverse charge: VAT is to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
    vatNumber: 'VAT no.',
    gstNumber: 'GST no.',
    registrationNumber: 'Registration no.',
    vat: 'VAT',
    gst: 'GST',
    salesTax: 'Sales tax',
    consumptionTax: 'Consumption tax',
    taxTotal: 'Total {name}',
    supplyDate: 'Date of supply',
    taxInCurrency: '{name} in {currency}',
    convertedAt: '{name} converted at 1 {from} = {rate} {to} ({source}, {date}).',
    howToPay: 'How to pay',
    accountName: 'Account name',
    accountNumber: 'Account number',
    sortCode: 'Sort code',
  },
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    invoiceNumber: 'Rechnungsnummer',
    creditNoteNumber: 'Gutschriftnummer',
    transaction: 'Transaktion',
    invoiceDate: 'Rechnungsdatum',
    dueDate: 'Fällig am',
    paidOn: 'Bezahlt am',
    billingPeriod: 'Abrechnungszeitraum',
    purchaseOrder: 'Bestellnummer',
    creditNoteDate: 'Gutschriftsdatum',
    creditsInvoice: 'Zu Rechnung',
    from: 'Von',
    billTo: 'Rechnung an',
    description: 'Beschreibung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    taxRate: 'Steuersatz',
    tax: 'Steuer',
    amount: 'Betrag',
    subtotal: 'Zwischensumme',
    discount: 'Rabatt',
    total: 'Gesamt',
    creditApplied: 'Angerechnetes Guthaben',
    grandTotal: 'Endbetrag',
    amountPaid: 'Bezahlt',
    amountDue: 'Offener Betrag',
    totalCredited: 'Gutgeschrieben',
    totalRefunded: 'Erstattet',
    paid: 'Bezahlt',
    due: 'Offen',
    pastDue: 'Überfällig',
    canceled: 'Storniert',
    credited: 'Gutgeschrieben',
    refunded: 'Erstattet',
    reason: 'Grund',
    taxId: 'USt-IdNr.',
    companyNumber: 'Handelsregisternr.',
    attention: 'z. Hd.',
    logoAlt: 'Logo von {name}',
    email: 'E-Mail',
    payBy: 'Bitte zahlen Sie {amount} bis {date} unter Angabe der Rechnungsnummer.',
    reverseCharge:
      'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 der Richtlinie 2006/112/EG).',
    vatNumber: 'USt-IdNr.',
    gstNumber: 'GST-Nr.',
    registrationNumber: 'Registrierungsnr.',
    vat: 'USt.',
    gst: 'GST',
    salesTax: 'Sales Tax',
    consumptionTax: 'Verbrauchsteuer',
    taxTotal: '{name} gesamt',
    supplyDate: 'Leistungsdatum',
    taxInCurrency: '{name} in {currency}',
    convertedAt: '{name} umgerechnet zu 1 {from} = {rate} {to} ({source}, {date}).',
    howToPay: 'Zahlungsinformationen',
    accountName: 'Kontoinhaber',
    accountNumber: 'Kontonummer',
    sortCode: 'Sort Code',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    invoiceNumber: 'Numéro de facture',
    creditNoteNumber: 'Numéro d’avoir',
    transaction: 'Transaction',
    invoiceDate: 'Date de facture',
    dueDate: 'Échéance',
    paidOn: 'Payée le',
    billingPeriod: 'Période de facturation',
    purchaseOrder: 'Bon de commande',
    creditNoteDate: 'Date de l’avoir',
    creditsInvoice: 'Avoir sur la facture',
    from: 'De',
    billTo: 'Facturer à',
    description: 'Description',
    quantity: 'Qté',
    unitPrice: 'Prix unitaire',
    taxRate: 'Taux de TVA',
    tax: 'TVA',
    amount: 'Montant',
    subtotal: 'Sous-total',
    discount: 'Remise',
    total: 'Total',
    creditApplied: 'Crédit appliqué',
    grandTotal: 'Total à payer',
    amountPaid: 'Montant payé',
    amountDue: 'Montant dû',
    totalCredited: 'Total crédité',
    totalRefunded: 'Total remboursé',
    paid: 'Payée',
    due: 'À payer',
    pastDue: 'En retard',
    canceled: 'Annulée',
    credited: 'Créditée',
    refunded: 'Remboursée',
    reason: 'Motif',
    taxId: 'N° de TVA',
    companyNumber: 'N° d’entreprise',
    attention: 'À l’attention de',
    logoAlt: 'Logo de {name}',
    email: 'E-mail',
    payBy: 'Merci de régler {amount} avant le {date} en indiquant le numéro de facture.',
    reverseCharge: 'Autoliquidation : TVA due par le preneur (article 196 de la directive 2006/112/CE).',
    vatNumber: 'N° TVA',
    gstNumber: 'N° GST',
    registrationNumber: "N° d'enregistrement",
    vat: 'TVA',
    gst: 'GST',
    salesTax: 'Taxe de vente',
    consumptionTax: 'Taxe à la consommation',
    taxTotal: 'Total {name}',
    supplyDate: 'Date de livraison',
    taxInCurrency: '{name} en {currency}',
    convertedAt: '{name} convertie au taux de 1 {from} = {rate} {to} ({source}, {date}).',
    howToPay: 'Modalités de paiement',
    accountName: 'Titulaire du compte',
    accountNumber: 'Numéro de compte',
    sortCode: 'Sort code',
  },
  es: {
    invoice: 'Factura',
    creditNote: 'Nota de crédito',
    invoiceNumber: 'Número de factura',
    creditNoteNumber: 'Número de nota de crédito',
    transaction: 'Transacción',
    invoiceDate: 'Fecha de factura',
    dueDate: 'Vencimiento',
    paidOn: 'Pagada el',
    billingPeriod: 'Periodo de facturación',
    purchaseOrder: 'Orden de compra',
    creditNoteDate: 'Fecha de la nota de crédito',
    creditsInvoice: 'Abona la factura',
    from: 'De',
    billTo: 'Facturar a',
    description: 'Descripción',
    quantity: 'Cant.',
    unitPrice: 'Precio unitario',
    taxRate: 'Tipo de impuesto',
    tax: 'Impuesto',
    amount: 'Importe',
    subtotal: 'Subtotal',
    discount: 'Descuento',
    total: 'Total',
    creditApplied: 'Crédito aplicado',
    grandTotal: 'Total a pagar',
    amountPaid: 'Importe pagado',
    amountDue: 'Importe pendiente',
    totalCredited: 'Total abonado',
    totalRefunded: 'Total reembolsado',
    paid: 'Pagada',
    due: 'Pendiente',
    pastDue: 'Vencida',
    canceled: 'Cancelada',
    credited: 'Abonada',
    refunded: 'Reembolsada',
    reason: 'Motivo',
    taxId: 'NIF/IVA',
    companyNumber: 'N.º de registro',
    attention: 'A la atención de',
    logoAlt: 'Logotipo de {name}',
    email: 'Correo electrónico',
    payBy: 'Pague {amount} antes del {date} indicando el número de factura.',
    reverseCharge:
      'Inversión del sujeto pasivo: IVA a cargo del destinatario (artículo 196 de la Directiva 2006/112/CE).',
    vatNumber: 'NIF-IVA',
    gstNumber: 'N.º GST',
    registrationNumber: 'N.º de registro',
    vat: 'IVA',
    gst: 'GST',
    salesTax: 'Impuesto sobre las ventas',
    consumptionTax: 'Impuesto al consumo',
    taxTotal: 'Total {name}',
    supplyDate: 'Fecha de la operación',
    taxInCurrency: '{name} en {currency}',
    convertedAt: '{name} convertido a 1 {from} = {rate} {to} ({source}, {date}).',
    howToPay: 'Cómo pagar',
    accountName: 'Titular de la cuenta',
    accountNumber: 'Número de cuenta',
    sortCode: 'Sort code',
  },
  ja: {
    invoice: '請求書',
    creditNote: 'クレジットノート',
    invoiceNumber: '請求書番号',
    creditNoteNumber: 'クレジットノート番号',
    transaction: '取引',
    invoiceDate: '請求日',
    dueDate: '支払期日',
    paidOn: '支払日',
    billingPeriod: '請求期間',
    purchaseOrder: '注文番号',
    creditNoteDate: '発行日',
    creditsInvoice: '対象請求書',
    from: '請求元',
    billTo: '請求先',
    description: '内容',
    quantity: '数量',
    unitPrice: '単価',
    taxRate: '税率',
    tax: '税額',
    amount: '金額',
    subtotal: '小計',
    discount: '割引',
    total: '合計',
    creditApplied: '適用クレジット',
    grandTotal: '請求額',
    amountPaid: '支払済額',
    amountDue: '未払額',
    totalCredited: 'クレジット合計',
    totalRefunded: '返金合計',
    paid: '支払済',
    due: '未払',
    pastDue: '期限超過',
    canceled: '取消',
    credited: 'クレジット済',
    refunded: '返金済',
    reason: '理由',
    taxId: '税務登録番号',
    companyNumber: '法人番号',
    attention: '担当',
    logoAlt: '{name}のロゴ',
    email: 'メール',
    payBy: '{date}までに{amount}をお支払いください（請求書番号をご記載ください）。',
    reverseCharge: 'リバースチャージ：付加価値税は受領者が納付します（EU指令2006/112/EC第196条）。',
    vatNumber: 'VAT番号',
    gstNumber: 'GST番号',
    registrationNumber: '登録番号',
    vat: '付加価値税',
    gst: 'GST',
    salesTax: '売上税',
    consumptionTax: '消費税',
    taxTotal: '{name}合計',
    supplyDate: '取引年月日',
    taxInCurrency: '{name}（{currency}）',
    convertedAt: '{name}の換算レート：1 {from} = {rate} {to}（{source}、{date}）',
    howToPay: 'お支払い方法',
    accountName: '口座名義',
    accountNumber: '口座番号',
    sortCode: 'ソートコード',
  },
} as const satisfies Record<InvoiceLanguage, InvoiceLabels>;

/** The labels of a locale's language, English when there is no table for it. */
export function labelsFor(locale: string): InvoiceLabels {
  const language = locale.split('-')[0]?.toLowerCase() ?? 'en';
  return (INVOICE_LANGUAGES as readonly string[]).includes(language)
    ? INVOICE_LABELS[language as InvoiceLanguage]
    : INVOICE_LABELS.en;
}
