/**
 * @module
 * The words of customer emails in the five languages the portal and checkout speak (ADR 1501).
 * `{seller}`, `{amount}`, `{date}`, `{name}` and `{number}` are filled by `composeEmail`; the
 * compiler keeps every table complete. A locale without a table here gets English.
 */
import type { EmailKind } from './entities.js';

export const EMAIL_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type EmailLanguage = (typeof EMAIL_LANGUAGES)[number];

export interface EmailWords {
  readonly subjects: Readonly<Record<EmailKind, string>>;
  readonly intros: Readonly<Record<EmailKind, string>>;
  readonly greeting: string;
  readonly greetingWithoutName: string;
  readonly amount: string;
  readonly invoiceNumber: string;
  readonly date: Readonly<Record<EmailKind, string>>;
  readonly products: string;
  /** A failed payment's next automatic try: the row's label and the sentence `{next}` fills. */
  readonly nextTry: string;
  readonly retryOn: string;
  /** A plan change: the new plan's row, what is charged or credited now, and when the change bills. */
  readonly newPlan: string;
  readonly chargedNow: string;
  readonly credited: string;
  readonly planBilling: Readonly<Record<'now' | 'next_renewal' | 'none', string>>;
  readonly viewInvoice: string;
  readonly payInvoice: string;
  readonly updatePayment: string;
  readonly viewCreditNote: string;
  readonly linkExpiry: string;
  readonly sentBy: string;
  readonly logoAlt: string;
}

const en: EmailWords = {
  subjects: {
    receipt: 'Your receipt from {seller}',
    invoice_issued: 'Invoice {number} from {seller}',
    payment_failed: 'Your payment to {seller} failed',
    subscription_past_due: 'Your {seller} subscription is past due',
    subscription_canceled: 'Your {seller} subscription is canceled',
    subscription_cancel_scheduled: 'Your {seller} subscription will be canceled',
    subscription_paused: 'Your {seller} subscription is paused',
    subscription_resumed: 'Your {seller} subscription is resumed',
    subscription_plan_changed: 'Your {seller} subscription has changed',
    refund_issued: 'Your refund from {seller}',
    credit_note_issued: 'A credit note from {seller}',
    renewal_upcoming: 'Your {seller} subscription renews soon',
    trial_ending: 'Your {seller} trial ends soon',
    card_expiring: 'Your card on file with {seller} expires soon',
  },
  intros: {
    receipt: 'Thank you: we received your payment of {amount}.',
    invoice_issued: 'Here is your invoice for {amount}.',
    payment_failed: 'We could not take your payment of {amount}. Please update your payment method.',
    subscription_past_due: 'Your subscription is past due: {amount} is unpaid.',
    subscription_canceled: 'Your subscription has been canceled.',
    subscription_cancel_scheduled: 'Your subscription is scheduled to be canceled.',
    subscription_paused: 'Your subscription has been paused.',
    subscription_resumed: 'Your subscription has been resumed.',
    subscription_plan_changed: 'Your subscription has been changed.',
    refund_issued: 'We have refunded {amount} to you.',
    credit_note_issued: 'We have issued you a credit of {amount}.',
    renewal_upcoming: 'Your subscription renews soon: {amount} will be charged.',
    trial_ending: 'Your trial ends soon. Your subscription then starts and {amount} will be charged.',
    card_expiring:
      'The card your subscription is charged to expires before the next charge. Please update your payment method.',
  },
  greeting: 'Hello {name},',
  greetingWithoutName: 'Hello,',
  amount: 'Amount',
  invoiceNumber: 'Invoice number',
  date: {
    receipt: 'Paid on',
    invoice_issued: 'Due date',
    payment_failed: 'Attempted on',
    subscription_past_due: 'Since',
    subscription_canceled: 'Canceled on',
    subscription_cancel_scheduled: 'Ends on',
    subscription_paused: 'Paused on',
    subscription_resumed: 'Resumed on',
    subscription_plan_changed: 'Next charge on',
    refund_issued: 'Refunded on',
    credit_note_issued: 'Issued on',
    renewal_upcoming: 'Renews on',
    trial_ending: 'Trial ends on',
    card_expiring: 'Next charge on',
  },
  products: 'Products',
  nextTry: 'Next try on',
  retryOn: 'We will try again on {next}.',
  newPlan: 'New plan',
  chargedNow: 'Charged now',
  credited: 'Credited to your balance',
  planBilling: {
    now: 'The change is charged now; your next regular charge is on {date}.',
    next_renewal: 'The change is billed with your next renewal on {date}.',
    none: 'The change is not billed; your next charge is on {date}.',
  },
  viewInvoice: 'View your invoice (PDF)',
  payInvoice: 'Pay your invoice',
  updatePayment: 'Update your payment method',
  viewCreditNote: 'View your credit note (PDF)',
  linkExpiry: 'Links in this email are personal to you and expire.',
  sentBy: 'Sent by {seller}.',
  logoAlt: '{seller} logo',
};

const de: EmailWords = {
  subjects: {
    receipt: 'Ihre Quittung von {seller}',
    invoice_issued: 'Rechnung {number} von {seller}',
    payment_failed: 'Ihre Zahlung an {seller} ist fehlgeschlagen',
    subscription_past_due: 'Ihr Abonnement bei {seller} ist überfällig',
    subscription_canceled: 'Ihr Abonnement bei {seller} ist gekündigt',
    subscription_cancel_scheduled: 'Ihr Abonnement bei {seller} wird gekündigt',
    subscription_paused: 'Ihr Abonnement bei {seller} ist pausiert',
    subscription_resumed: 'Ihr Abonnement bei {seller} läuft wieder',
    subscription_plan_changed: 'Ihr Abonnement bei {seller} wurde geändert',
    refund_issued: 'Ihre Erstattung von {seller}',
    credit_note_issued: 'Eine Gutschrift von {seller}',
    renewal_upcoming: 'Ihr Abonnement bei {seller} verlängert sich bald',
    trial_ending: 'Ihr Testzeitraum bei {seller} endet bald',
    card_expiring: 'Ihre bei {seller} hinterlegte Karte läuft bald ab',
  },
  intros: {
    receipt: 'Vielen Dank: Wir haben Ihre Zahlung über {amount} erhalten.',
    invoice_issued: 'Hier ist Ihre Rechnung über {amount}.',
    payment_failed:
      'Wir konnten Ihre Zahlung über {amount} nicht einziehen. Bitte aktualisieren Sie Ihre Zahlungsmethode.',
    subscription_past_due: 'Ihr Abonnement ist überfällig: {amount} sind unbezahlt.',
    subscription_canceled: 'Ihr Abonnement wurde gekündigt.',
    subscription_cancel_scheduled: 'Ihr Abonnement ist zur Kündigung vorgemerkt.',
    subscription_paused: 'Ihr Abonnement wurde pausiert.',
    subscription_resumed: 'Ihr Abonnement wurde fortgesetzt.',
    subscription_plan_changed: 'Ihr Abonnement wurde geändert.',
    refund_issued: 'Wir haben Ihnen {amount} erstattet.',
    credit_note_issued: 'Wir haben Ihnen eine Gutschrift über {amount} ausgestellt.',
    renewal_upcoming: 'Ihr Abonnement verlängert sich bald: {amount} werden berechnet.',
    trial_ending: 'Ihr Testzeitraum endet bald. Danach beginnt Ihr Abonnement und {amount} werden berechnet.',
    card_expiring:
      'Die Karte, mit der Ihr Abonnement bezahlt wird, läuft vor der nächsten Abbuchung ab. Bitte aktualisieren Sie Ihre Zahlungsmethode.',
  },
  greeting: 'Hallo {name},',
  greetingWithoutName: 'Hallo,',
  amount: 'Betrag',
  invoiceNumber: 'Rechnungsnummer',
  date: {
    receipt: 'Bezahlt am',
    invoice_issued: 'Fällig am',
    payment_failed: 'Versucht am',
    subscription_past_due: 'Seit',
    subscription_canceled: 'Gekündigt am',
    subscription_cancel_scheduled: 'Endet am',
    subscription_paused: 'Pausiert am',
    subscription_resumed: 'Fortgesetzt am',
    subscription_plan_changed: 'Nächste Abbuchung am',
    refund_issued: 'Erstattet am',
    credit_note_issued: 'Ausgestellt am',
    renewal_upcoming: 'Verlängerung am',
    trial_ending: 'Testzeitraum endet am',
    card_expiring: 'Nächste Abbuchung am',
  },
  products: 'Produkte',
  nextTry: 'Nächster Versuch am',
  retryOn: 'Wir versuchen es am {next} erneut.',
  newPlan: 'Neuer Tarif',
  chargedNow: 'Jetzt berechnet',
  credited: 'Ihrem Guthaben gutgeschrieben',
  planBilling: {
    now: 'Die Änderung wird jetzt berechnet; Ihre nächste reguläre Abbuchung ist am {date}.',
    next_renewal: 'Die Änderung wird mit Ihrer nächsten Verlängerung am {date} berechnet.',
    none: 'Die Änderung wird nicht berechnet; Ihre nächste Abbuchung ist am {date}.',
  },
  viewInvoice: 'Ihre Rechnung ansehen (PDF)',
  payInvoice: 'Rechnung bezahlen',
  updatePayment: 'Zahlungsmethode aktualisieren',
  viewCreditNote: 'Ihre Gutschrift ansehen (PDF)',
  linkExpiry: 'Die Links in dieser E-Mail gelten nur für Sie und laufen ab.',
  sentBy: 'Gesendet von {seller}.',
  logoAlt: 'Logo von {seller}',
};

const fr: EmailWords = {
  subjects: {
    receipt: 'Votre reçu de {seller}',
    invoice_issued: 'Facture {number} de {seller}',
    payment_failed: 'Votre paiement à {seller} a échoué',
    subscription_past_due: 'Votre abonnement {seller} est en retard de paiement',
    subscription_canceled: 'Votre abonnement {seller} est résilié',
    subscription_cancel_scheduled: 'Votre abonnement {seller} va être résilié',
    subscription_paused: 'Votre abonnement {seller} est suspendu',
    subscription_resumed: 'Votre abonnement {seller} a repris',
    subscription_plan_changed: 'Votre abonnement {seller} a été modifié',
    refund_issued: 'Votre remboursement de {seller}',
    credit_note_issued: 'Un avoir de {seller}',
    renewal_upcoming: 'Votre abonnement {seller} sera bientôt renouvelé',
    trial_ending: 'Votre essai {seller} se termine bientôt',
    card_expiring: 'Votre carte enregistrée chez {seller} expire bientôt',
  },
  intros: {
    receipt: 'Merci : nous avons reçu votre paiement de {amount}.',
    invoice_issued: 'Voici votre facture de {amount}.',
    payment_failed:
      "Nous n'avons pas pu prélever votre paiement de {amount}. Veuillez mettre à jour votre moyen de paiement.",
    subscription_past_due: 'Votre abonnement est en retard de paiement : {amount} reste impayé.',
    subscription_canceled: 'Votre abonnement a été résilié.',
    subscription_cancel_scheduled: 'La résiliation de votre abonnement est programmée.',
    subscription_paused: 'Votre abonnement a été suspendu.',
    subscription_resumed: 'Votre abonnement a repris.',
    subscription_plan_changed: 'Votre abonnement a été modifié.',
    refund_issued: 'Nous vous avons remboursé {amount}.',
    credit_note_issued: 'Nous vous avons émis un avoir de {amount}.',
    renewal_upcoming: 'Votre abonnement sera bientôt renouvelé : {amount} sera prélevé.',
    trial_ending: 'Votre essai se termine bientôt. Votre abonnement commencera alors et {amount} sera prélevé.',
    card_expiring:
      'La carte utilisée pour votre abonnement expire avant le prochain prélèvement. Veuillez mettre à jour votre moyen de paiement.',
  },
  greeting: 'Bonjour {name},',
  greetingWithoutName: 'Bonjour,',
  amount: 'Montant',
  invoiceNumber: 'Numéro de facture',
  date: {
    receipt: 'Payé le',
    invoice_issued: "Date d'échéance",
    payment_failed: 'Tenté le',
    subscription_past_due: 'Depuis le',
    subscription_canceled: 'Résilié le',
    subscription_cancel_scheduled: 'Prend fin le',
    subscription_paused: 'Suspendu le',
    subscription_resumed: 'Repris le',
    subscription_plan_changed: 'Prochain prélèvement le',
    refund_issued: 'Remboursé le',
    credit_note_issued: 'Émis le',
    renewal_upcoming: 'Renouvellement le',
    trial_ending: 'Fin de l’essai le',
    card_expiring: 'Prochain prélèvement le',
  },
  products: 'Produits',
  nextTry: 'Prochaine tentative le',
  retryOn: 'Nous réessaierons le {next}.',
  newPlan: 'Nouvelle formule',
  chargedNow: 'Facturé maintenant',
  credited: 'Crédité sur votre solde',
  planBilling: {
    now: 'La modification est facturée maintenant ; votre prochain prélèvement habituel aura lieu le {date}.',
    next_renewal: 'La modification sera facturée avec votre prochain renouvellement, le {date}.',
    none: "La modification n'est pas facturée ; votre prochain prélèvement aura lieu le {date}.",
  },
  viewInvoice: 'Voir votre facture (PDF)',
  payInvoice: 'Payer votre facture',
  updatePayment: 'Mettre à jour votre moyen de paiement',
  viewCreditNote: 'Voir votre avoir (PDF)',
  linkExpiry: 'Les liens de cet e-mail vous sont personnels et expirent.',
  sentBy: 'Envoyé par {seller}.',
  logoAlt: 'Logo de {seller}',
};

const es: EmailWords = {
  subjects: {
    receipt: 'Tu recibo de {seller}',
    invoice_issued: 'Factura {number} de {seller}',
    payment_failed: 'Tu pago a {seller} no se ha podido realizar',
    subscription_past_due: 'Tu suscripción de {seller} tiene un pago vencido',
    subscription_canceled: 'Tu suscripción de {seller} está cancelada',
    subscription_cancel_scheduled: 'Tu suscripción de {seller} se cancelará',
    subscription_paused: 'Tu suscripción de {seller} está en pausa',
    subscription_resumed: 'Tu suscripción de {seller} se ha reanudado',
    subscription_plan_changed: 'Tu suscripción de {seller} ha cambiado',
    refund_issued: 'Tu reembolso de {seller}',
    credit_note_issued: 'Una nota de crédito de {seller}',
    renewal_upcoming: 'Tu suscripción de {seller} se renovará pronto',
    trial_ending: 'Tu prueba de {seller} termina pronto',
    card_expiring: 'Tu tarjeta registrada en {seller} caduca pronto',
  },
  intros: {
    receipt: 'Gracias: hemos recibido tu pago de {amount}.',
    invoice_issued: 'Aquí tienes tu factura de {amount}.',
    payment_failed: 'No hemos podido cobrar tu pago de {amount}. Actualiza tu método de pago.',
    subscription_past_due: 'Tu suscripción tiene un pago vencido: {amount} sin pagar.',
    subscription_canceled: 'Tu suscripción se ha cancelado.',
    subscription_cancel_scheduled: 'La cancelación de tu suscripción está programada.',
    subscription_paused: 'Tu suscripción se ha puesto en pausa.',
    subscription_resumed: 'Tu suscripción se ha reanudado.',
    subscription_plan_changed: 'Tu suscripción se ha modificado.',
    refund_issued: 'Te hemos reembolsado {amount}.',
    credit_note_issued: 'Te hemos emitido un crédito de {amount}.',
    renewal_upcoming: 'Tu suscripción se renovará pronto: se cobrarán {amount}.',
    trial_ending: 'Tu prueba termina pronto. Después empezará tu suscripción y se cobrarán {amount}.',
    card_expiring:
      'La tarjeta con la que se cobra tu suscripción caduca antes del próximo cobro. Actualiza tu método de pago.',
  },
  greeting: 'Hola, {name}:',
  greetingWithoutName: 'Hola:',
  amount: 'Importe',
  invoiceNumber: 'Número de factura',
  date: {
    receipt: 'Pagado el',
    invoice_issued: 'Fecha de vencimiento',
    payment_failed: 'Intentado el',
    subscription_past_due: 'Desde el',
    subscription_canceled: 'Cancelada el',
    subscription_cancel_scheduled: 'Termina el',
    subscription_paused: 'En pausa desde el',
    subscription_resumed: 'Reanudada el',
    subscription_plan_changed: 'Próximo cobro el',
    refund_issued: 'Reembolsado el',
    credit_note_issued: 'Emitida el',
    renewal_upcoming: 'Se renueva el',
    trial_ending: 'La prueba termina el',
    card_expiring: 'Próximo cobro el',
  },
  products: 'Productos',
  nextTry: 'Próximo intento el',
  retryOn: 'Lo intentaremos de nuevo el {next}.',
  newPlan: 'Nuevo plan',
  chargedNow: 'Cobrado ahora',
  credited: 'Abonado a tu saldo',
  planBilling: {
    now: 'El cambio se cobra ahora; tu próximo cobro habitual será el {date}.',
    next_renewal: 'El cambio se cobrará con tu próxima renovación, el {date}.',
    none: 'El cambio no se cobra; tu próximo cobro será el {date}.',
  },
  viewInvoice: 'Ver tu factura (PDF)',
  payInvoice: 'Pagar tu factura',
  updatePayment: 'Actualizar tu método de pago',
  viewCreditNote: 'Ver tu nota de crédito (PDF)',
  linkExpiry: 'Los enlaces de este correo son personales y caducan.',
  sentBy: 'Enviado por {seller}.',
  logoAlt: 'Logotipo de {seller}',
};

const ja: EmailWords = {
  subjects: {
    receipt: '{seller}からの領収書',
    invoice_issued: '{seller}からの請求書 {number}',
    payment_failed: '{seller}へのお支払いが失敗しました',
    subscription_past_due: '{seller}のサブスクリプションの支払期限が過ぎています',
    subscription_canceled: '{seller}のサブスクリプションが解約されました',
    subscription_cancel_scheduled: '{seller}のサブスクリプションの解約が予定されています',
    subscription_paused: '{seller}のサブスクリプションが一時停止されました',
    subscription_resumed: '{seller}のサブスクリプションが再開されました',
    subscription_plan_changed: '{seller}のサブスクリプションが変更されました',
    refund_issued: '{seller}からの返金',
    credit_note_issued: '{seller}からのクレジットノート',
    renewal_upcoming: '{seller}のサブスクリプションがまもなく更新されます',
    trial_ending: '{seller}の無料トライアルがまもなく終了します',
    card_expiring: '{seller}に登録されたカードの有効期限がまもなく切れます',
  },
  intros: {
    receipt: '{amount}のお支払いを受け付けました。ありがとうございます。',
    invoice_issued: '{amount}の請求書をお送りします。',
    payment_failed: '{amount}のお支払いを処理できませんでした。お支払い方法を更新してください。',
    subscription_past_due: 'サブスクリプションの支払期限が過ぎています：{amount}が未払いです。',
    subscription_canceled: 'サブスクリプションは解約されました。',
    subscription_cancel_scheduled: 'サブスクリプションの解約が予定されています。',
    subscription_paused: 'サブスクリプションは一時停止されました。',
    subscription_resumed: 'サブスクリプションは再開されました。',
    subscription_plan_changed: 'サブスクリプションが変更されました。',
    refund_issued: '{amount}を返金しました。',
    credit_note_issued: '{amount}のクレジットを発行しました。',
    renewal_upcoming: 'サブスクリプションがまもなく更新され、{amount}が請求されます。',
    trial_ending: '無料トライアルがまもなく終了します。その後サブスクリプションが開始され、{amount}が請求されます。',
    card_expiring:
      'サブスクリプションのお支払いに使うカードは、次回の請求日より前に有効期限が切れます。お支払い方法を更新してください。',
  },
  greeting: '{name}様',
  greetingWithoutName: 'お客様',
  amount: '金額',
  invoiceNumber: '請求書番号',
  date: {
    receipt: 'お支払い日',
    invoice_issued: '支払期日',
    payment_failed: '試行日',
    subscription_past_due: '期限超過日',
    subscription_canceled: '解約日',
    subscription_cancel_scheduled: '終了日',
    subscription_paused: '一時停止日',
    subscription_resumed: '再開日',
    subscription_plan_changed: '次回請求日',
    refund_issued: '返金日',
    credit_note_issued: '発行日',
    renewal_upcoming: '更新日',
    trial_ending: 'トライアル終了日',
    card_expiring: '次回請求日',
  },
  products: '商品',
  nextTry: '次回の再試行日',
  retryOn: '{next}に再度お支払いを試みます。',
  newPlan: '新しいプラン',
  chargedNow: '今回の請求額',
  credited: '残高へのクレジット',
  planBilling: {
    now: '変更分は今回請求されます。次回の定期請求日は{date}です。',
    next_renewal: '変更分は{date}の次回更新時に請求されます。',
    none: '変更分は請求されません。次回の請求日は{date}です。',
  },
  viewInvoice: '請求書を見る（PDF）',
  payInvoice: '請求書を支払う',
  updatePayment: 'お支払い方法を更新する',
  viewCreditNote: 'クレジットノートを見る（PDF）',
  linkExpiry: 'このメールのリンクはお客様専用で、有効期限があります。',
  sentBy: '{seller}より送信',
  logoAlt: '{seller}のロゴ',
};

export const EMAIL_WORDS: Readonly<Record<EmailLanguage, EmailWords>> = { en, de, fr, es, ja };

/** The language of a locale (`de-AT` → `de`), English when it has no table. */
export function emailLanguageOf(locale: string): EmailLanguage {
  const language = locale.split('-')[0]?.toLowerCase() ?? 'en';
  return (EMAIL_LANGUAGES as readonly string[]).includes(language) ? (language as EmailLanguage) : 'en';
}
