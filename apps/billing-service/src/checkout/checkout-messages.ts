/**
 * @module
 * The hosted checkout's text in English, German, French, Spanish and Japanese (ADR 1433), the
 * billing portal's languages, on the same localisation home as the portal's catalogue
 * (`@drawdown/http-kit` `localisation.ts`, ADR 0924): plain
 * templates with `{name}` placeholders filled with text `Intl` already formatted (amounts from
 * lowest units as exact decimal text, dates, country names). The language is the `locale` query
 * parameter when it names one of these, then the customer's stored locale (when not the API's
 * default `en`), then the browser's `Accept-Language`, then English. Errors are shown by their
 * code and field, never by the API's English detail.
 */
import type { BillingError } from '@drawdown/billing-core';
import {
  LANGUAGES,
  type Language,
  type Messages as LanguageMessages,
  messageCatalogue,
  negotiateLocale,
  type Translate,
} from '@drawdown/http-kit';

export const CHECKOUT_LANGUAGES = LANGUAGES;
export type CheckoutLanguage = Language;

const en = {
  skip: 'Skip to the checkout',
  sandboxBadge: 'Test mode: sandbox, no real payment',
  title: 'Checkout: {merchant}',
  heading: 'Checkout',
  paying: 'Paying {merchant}',
  orderDate: 'Order of {date}',
  billingPeriod: 'Billing period: {start} to {end}',
  renewsDay: 'renews every day',
  renewsWeek: 'renews every week',
  renewsMonth: 'renews every month',
  renewsYear: 'renews every year',
  renewsDays: 'renews every {count} days',
  renewsWeeks: 'renews every {count} weeks',
  renewsMonths: 'renews every {count} months',
  renewsYears: 'renews every {count} years',
  yourOrder: 'Your order',
  colItem: 'Item',
  colQuantity: 'Quantity',
  colAmount: 'Amount',
  subtotal: 'Subtotal',
  discount: 'Discount',
  tax: 'Tax',
  taxVat: 'VAT {rate}',
  taxGst: 'GST {rate}',
  taxSales: 'Sales tax {rate}',
  taxConsumption: 'Consumption tax {rate}',
  backToMerchant: 'Back to {merchant}',
  refusedLinkTitle: 'Checkout link not allowed',
  refusedLinkText:
    'This checkout link leads back to an address the seller does not allow. Ask the seller for a new link.',
  promoHeading: 'Promo code',
  promoCode: 'Code',
  applyCode: 'Apply',
  errCodeInvalid: 'This code is not valid here. Check it and try again.',
  errCodeExpired: 'This code has expired.',
  errCodeUsed: 'This code has been used as many times as it can be.',
  errCodeNotEligible: 'This code does not apply to anything in this order.',
  errCodeCurrency: 'This code is for another currency than this order.',
  taxRate: 'Tax {rate}',
  creditApplied: 'Credit applied',
  paid: 'Paid',
  dueToday: 'Due today',
  detailsHeading: '1. Your details',
  taxHint: 'Tax is worked out for your address before you pay.',
  email: 'Email',
  country: 'Country',
  chooseCountry: 'Choose your country',
  postalCode: 'Postal code',
  zipCode: 'ZIP code',
  region: 'Region',
  state: 'State',
  province: 'Province',
  regionalHint: 'Tax in {country} depends on where you are: give the {region} or the {postal}.',
  optionalHint: 'Needed in some countries (for example the United States and Canada) to work out the tax.',
  city: 'City',
  address: 'Address',
  updateDetails: 'Update details and tax',
  continue: 'Continue',
  paymentHeading: '2. Payment',
  testCardsHint: 'Sandbox test cards, with any name, any future expiry and any security code:',
  testCardSuccess: '{number}: payment succeeds',
  testCardChallenge: '{number}: asks for 3-D Secure authentication',
  testCardDecline: '{number}: declined',
  nameOnCard: 'Name on card',
  cardNumber: 'Card number',
  expiry: 'Expiry (MM/YY)',
  securityCode: 'Security code',
  cardSavedHint: 'Your card is saved for this subscription’s future payments.',
  saveCardLabel: 'Save this card for future purchases',
  saveCardButton: 'Save card',
  payButton: 'Pay {amount}',
  declined: 'Your card was declined. Nothing was charged. Try again or use another card.',
  authenticationFailed:
    'The card’s authentication was not completed. Nothing was charged. Try again or use another card.',
  requiresAction: 'Your bank asks you to confirm this payment. Continue to authentication.',
  processing: 'Your payment is being processed. Reload this page in a moment.',
  continueToAuthentication: 'Continue to authentication',
  cardEnding: '{brand} ending {last4}',
  methodUpdated: 'Your payment method was updated.',
  methodUpdatedWith: 'Your payment method was updated: {card}.',
  zeroComplete: 'Your order is complete; nothing was charged.',
  paymentReceived: 'Payment received: {amount}. Thank you.',
  paymentReceivedWith: 'Payment received: {amount}, paid with {card}. Thank you.',
  subscriptionActive: 'Your subscription is active.',
  canceled: 'This checkout is no longer available: the transaction was canceled. Nothing was charged.',
  noProvider: 'This checkout cannot take card payments. Contact {merchant} to pay.',
  detailsSummary: '{email} · {country}',
  notFoundTitle: 'Checkout not found',
  notFoundText: 'This checkout link is not valid. Ask the seller for a new link.',
  confirmTitle: 'Confirm this payment',
  confirmText:
    'Your bank asks you to confirm a payment of {amount}. This page stands in for the bank’s 3-D Secure check.',
  confirmSetupText:
    'Your bank asks you to confirm saving your card; nothing is charged. This page stands in for the bank’s 3-D Secure check.',
  completeAuthentication: 'Complete authentication',
  failAuthentication: 'Fail authentication',
  authenticationFinished: 'Authentication finished',
  backToCheckout: 'Back to the checkout',
  stripeCardHint: 'Your card details go to Stripe, our payment processor, never to this site.',
  stripeNeedsScript: 'Paying by card needs JavaScript: the card form is Stripe’s.',
  paymentNotStarted: 'The payment could not be started. Reload the page and try again; nothing was charged.',
  paymentNotConfirmed: 'The payment could not be confirmed. Try again.',
  paymentConnection: 'The payment could not be started. Check your connection and try again.',
  errorSummary: 'Check the marked fields and try again.',
  errEmail: 'Enter your email address, for example name@example.com.',
  errEmailMismatch: 'Enter the email address this purchase was made out to.',
  errEmailTaken:
    'This email address already belongs to a customer. Use the payment link the seller sent you, or pay with another email address.',
  errCountry: 'Choose your country from the list.',
  errRegionOrPostal: 'Give the {region} or the {postal}: tax in {country} depends on it.',
  errTestCard: 'The sandbox takes only the test cards listed above.',
  errCardNumber: 'Check the card number.',
  errSecurityCode: 'The security code is three or four digits.',
  errCardholder: 'Enter the name on the card (at most 200 characters).',
  errExpiry: 'Enter an expiry month that has not passed, as MM/YY.',
  errTooLong: 'One of the fields is too long.',
  errCharacters: 'One of the fields holds characters that cannot be stored. Remove them and try again.',
  errStale: 'This page is out of date. Reload it and try again; nothing was charged.',
  errAlreadyPaid: 'This transaction is already paid.',
  errNotPayable: 'This transaction can no longer be paid.',
  errNotEditable: 'The details of this transaction can no longer change.',
  errInProgress: 'A payment of this transaction is already in progress. Wait for its outcome.',
  errAmountChanged: 'The amount due has changed since this page was shown; nothing was charged. Check the new amount.',
  errNoProvider: 'This checkout cannot take card payments.',
  errGeneric: 'The checkout could not accept this. Check your details and try again.',
};

export type CheckoutMessageKey = keyof typeof en;
type Messages = LanguageMessages<CheckoutMessageKey>;

const de: Messages = {
  skip: 'Zur Kasse springen',
  sandboxBadge: 'Testmodus: Sandbox, keine echte Zahlung',
  title: 'Kasse: {merchant}',
  heading: 'Kasse',
  paying: 'Zahlung an {merchant}',
  orderDate: 'Bestellung vom {date}',
  billingPeriod: 'Abrechnungszeitraum: {start} bis {end}',
  renewsDay: 'verlängert sich täglich',
  renewsWeek: 'verlängert sich wöchentlich',
  renewsMonth: 'verlängert sich monatlich',
  renewsYear: 'verlängert sich jährlich',
  renewsDays: 'verlängert sich alle {count} Tage',
  renewsWeeks: 'verlängert sich alle {count} Wochen',
  renewsMonths: 'verlängert sich alle {count} Monate',
  renewsYears: 'verlängert sich alle {count} Jahre',
  yourOrder: 'Ihre Bestellung',
  colItem: 'Artikel',
  colQuantity: 'Menge',
  colAmount: 'Betrag',
  subtotal: 'Zwischensumme',
  discount: 'Rabatt',
  tax: 'Steuer',
  taxVat: 'USt. {rate}',
  taxGst: 'GST {rate}',
  taxSales: 'Sales Tax {rate}',
  taxConsumption: 'Verbrauchsteuer {rate}',
  backToMerchant: 'Zurück zu {merchant}',
  refusedLinkTitle: 'Kassenlink nicht zulässig',
  refusedLinkText:
    'Dieser Kassenlink führt zu einer Adresse zurück, die der Verkäufer nicht zulässt. Bitten Sie den Verkäufer um einen neuen Link.',
  promoHeading: 'Gutscheincode',
  promoCode: 'Code',
  applyCode: 'Einlösen',
  errCodeInvalid: 'Dieser Code ist hier nicht gültig. Prüfen Sie ihn und versuchen Sie es erneut.',
  errCodeExpired: 'Dieser Code ist abgelaufen.',
  errCodeUsed: 'Dieser Code wurde bereits so oft eingelöst, wie er kann.',
  errCodeNotEligible: 'Dieser Code gilt für nichts in dieser Bestellung.',
  errCodeCurrency: 'Dieser Code gilt für eine andere Währung als diese Bestellung.',
  taxRate: 'Steuer {rate}',
  creditApplied: 'Angerechnetes Guthaben',
  paid: 'Bezahlt',
  dueToday: 'Heute fällig',
  detailsHeading: '1. Ihre Angaben',
  taxHint: 'Die Steuer wird vor der Zahlung für Ihre Adresse berechnet.',
  email: 'E-Mail',
  country: 'Land',
  chooseCountry: 'Wählen Sie Ihr Land',
  postalCode: 'Postleitzahl',
  zipCode: 'ZIP-Code',
  region: 'Region',
  state: 'Bundesstaat',
  province: 'Provinz',
  regionalHint: 'Die Steuer in {country} hängt vom Ort ab: Geben Sie {region} oder {postal} an.',
  optionalHint: 'In manchen Ländern (zum Beispiel den USA und Kanada) für die Steuerberechnung nötig.',
  city: 'Ort',
  address: 'Adresse',
  updateDetails: 'Angaben und Steuer aktualisieren',
  continue: 'Weiter',
  paymentHeading: '2. Zahlung',
  testCardsHint:
    'Sandbox-Testkarten, mit beliebigem Namen, beliebigem zukünftigem Ablaufdatum und beliebiger Prüfnummer:',
  testCardSuccess: '{number}: Zahlung gelingt',
  testCardChallenge: '{number}: verlangt eine 3-D-Secure-Authentifizierung',
  testCardDecline: '{number}: abgelehnt',
  nameOnCard: 'Name auf der Karte',
  cardNumber: 'Kartennummer',
  expiry: 'Ablaufdatum (MM/JJ)',
  securityCode: 'Prüfnummer',
  cardSavedHint: 'Ihre Karte wird für die künftigen Zahlungen dieses Abonnements gespeichert.',
  saveCardLabel: 'Diese Karte für künftige Käufe speichern',
  saveCardButton: 'Karte speichern',
  payButton: '{amount} bezahlen',
  declined:
    'Ihre Karte wurde abgelehnt. Es wurde nichts abgebucht. Versuchen Sie es erneut oder verwenden Sie eine andere Karte.',
  authenticationFailed:
    'Die Authentifizierung der Karte wurde nicht abgeschlossen. Es wurde nichts abgebucht. Versuchen Sie es erneut oder verwenden Sie eine andere Karte.',
  requiresAction: 'Ihre Bank bittet Sie, diese Zahlung zu bestätigen. Weiter zur Authentifizierung.',
  processing: 'Ihre Zahlung wird verarbeitet. Laden Sie diese Seite gleich neu.',
  continueToAuthentication: 'Weiter zur Authentifizierung',
  cardEnding: '{brand} mit Endziffern {last4}',
  methodUpdated: 'Ihre Zahlungsmethode wurde aktualisiert.',
  methodUpdatedWith: 'Ihre Zahlungsmethode wurde aktualisiert: {card}.',
  zeroComplete: 'Ihre Bestellung ist abgeschlossen; es wurde nichts abgebucht.',
  paymentReceived: 'Zahlung erhalten: {amount}. Vielen Dank.',
  paymentReceivedWith: 'Zahlung erhalten: {amount}, bezahlt mit {card}. Vielen Dank.',
  subscriptionActive: 'Ihr Abonnement ist aktiv.',
  canceled: 'Diese Kasse ist nicht mehr verfügbar: Die Transaktion wurde storniert. Es wurde nichts abgebucht.',
  noProvider: 'Diese Kasse kann keine Kartenzahlungen annehmen. Wenden Sie sich zum Bezahlen an {merchant}.',
  detailsSummary: '{email} · {country}',
  notFoundTitle: 'Kasse nicht gefunden',
  notFoundText: 'Dieser Link zur Kasse ist ungültig. Bitten Sie den Verkäufer um einen neuen Link.',
  confirmTitle: 'Diese Zahlung bestätigen',
  confirmText:
    'Ihre Bank bittet Sie, eine Zahlung von {amount} zu bestätigen. Diese Seite steht für die 3-D-Secure-Prüfung der Bank.',
  confirmSetupText:
    'Ihre Bank bittet Sie, das Speichern Ihrer Karte zu bestätigen; es wird nichts abgebucht. Diese Seite steht für die 3-D-Secure-Prüfung der Bank.',
  completeAuthentication: 'Authentifizierung abschließen',
  failAuthentication: 'Authentifizierung scheitern lassen',
  authenticationFinished: 'Authentifizierung beendet',
  backToCheckout: 'Zurück zur Kasse',
  stripeCardHint: 'Ihre Kartendaten gehen an Stripe, unseren Zahlungsdienstleister, nie an diese Website.',
  stripeNeedsScript: 'Die Kartenzahlung braucht JavaScript: Das Kartenformular stammt von Stripe.',
  paymentNotStarted:
    'Die Zahlung konnte nicht gestartet werden. Laden Sie die Seite neu und versuchen Sie es erneut; es wurde nichts abgebucht.',
  paymentNotConfirmed: 'Die Zahlung konnte nicht bestätigt werden. Versuchen Sie es erneut.',
  paymentConnection:
    'Die Zahlung konnte nicht gestartet werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  errorSummary: 'Prüfen Sie die markierten Felder und versuchen Sie es erneut.',
  errEmail: 'Geben Sie Ihre E-Mail-Adresse ein, zum Beispiel name@example.com.',
  errEmailMismatch: 'Geben Sie die E-Mail-Adresse ein, auf die dieser Kauf ausgestellt wurde.',
  errEmailTaken:
    'Diese E-Mail-Adresse gehört bereits zu einem Kundenkonto. Nutzen Sie den Zahlungslink, den Ihnen der Verkäufer geschickt hat, oder eine andere E-Mail-Adresse.',
  errCountry: 'Wählen Sie Ihr Land aus der Liste.',
  errRegionOrPostal: 'Geben Sie {region} oder {postal} an: Die Steuer in {country} hängt davon ab.',
  errTestCard: 'Die Sandbox nimmt nur die oben genannten Testkarten an.',
  errCardNumber: 'Prüfen Sie die Kartennummer.',
  errSecurityCode: 'Die Prüfnummer hat drei oder vier Ziffern.',
  errCardholder: 'Geben Sie den Namen auf der Karte ein (höchstens 200 Zeichen).',
  errExpiry: 'Geben Sie einen noch nicht vergangenen Ablaufmonat als MM/JJ ein.',
  errTooLong: 'Eines der Felder ist zu lang.',
  errCharacters:
    'Eines der Felder enthält Zeichen, die nicht gespeichert werden können. Entfernen Sie sie und versuchen Sie es erneut.',
  errStale: 'Diese Seite ist veraltet. Laden Sie sie neu und versuchen Sie es erneut; es wurde nichts abgebucht.',
  errAlreadyPaid: 'Diese Transaktion ist bereits bezahlt.',
  errNotPayable: 'Diese Transaktion kann nicht mehr bezahlt werden.',
  errNotEditable: 'Die Angaben dieser Transaktion können nicht mehr geändert werden.',
  errInProgress: 'Eine Zahlung dieser Transaktion läuft bereits. Warten Sie ihr Ergebnis ab.',
  errAmountChanged:
    'Der fällige Betrag hat sich seit dem Anzeigen dieser Seite geändert. Es wurde nichts abgebucht; prüfen Sie den neuen Betrag.',
  errNoProvider: 'Diese Kasse kann keine Kartenzahlungen annehmen.',
  errGeneric: 'Die Kasse konnte dies nicht annehmen. Prüfen Sie Ihre Angaben und versuchen Sie es erneut.',
};

const fr: Messages = {
  skip: 'Aller au paiement',
  sandboxBadge: 'Mode test : sandbox, aucun paiement réel',
  title: 'Paiement : {merchant}',
  heading: 'Paiement',
  paying: 'Paiement à {merchant}',
  orderDate: 'Commande du {date}',
  billingPeriod: 'Période de facturation : du {start} au {end}',
  renewsDay: 'renouvelé chaque jour',
  renewsWeek: 'renouvelé chaque semaine',
  renewsMonth: 'renouvelé chaque mois',
  renewsYear: 'renouvelé chaque année',
  renewsDays: 'renouvelé tous les {count} jours',
  renewsWeeks: 'renouvelé toutes les {count} semaines',
  renewsMonths: 'renouvelé tous les {count} mois',
  renewsYears: 'renouvelé tous les {count} ans',
  yourOrder: 'Votre commande',
  colItem: 'Article',
  colQuantity: 'Quantité',
  colAmount: 'Montant',
  subtotal: 'Sous-total',
  discount: 'Remise',
  tax: 'Taxe',
  taxVat: 'TVA {rate}',
  taxGst: 'GST {rate}',
  taxSales: 'Taxe de vente {rate}',
  taxConsumption: 'Taxe à la consommation {rate}',
  backToMerchant: 'Retour à {merchant}',
  refusedLinkTitle: 'Lien de paiement non autorisé',
  refusedLinkText:
    'Ce lien de paiement renvoie vers une adresse que le vendeur n’autorise pas. Demandez un nouveau lien au vendeur.',
  promoHeading: 'Code promo',
  promoCode: 'Code',
  applyCode: 'Appliquer',
  errCodeInvalid: 'Ce code n’est pas valable ici. Vérifiez-le et réessayez.',
  errCodeExpired: 'Ce code a expiré.',
  errCodeUsed: 'Ce code a déjà été utilisé autant de fois que possible.',
  errCodeNotEligible: 'Ce code ne s’applique à rien dans cette commande.',
  errCodeCurrency: 'Ce code est prévu pour une autre devise que cette commande.',
  taxRate: 'Taxe {rate}',
  creditApplied: 'Crédit appliqué',
  paid: 'Payé',
  dueToday: 'À payer aujourd’hui',
  detailsHeading: '1. Vos coordonnées',
  taxHint: 'La taxe est calculée pour votre adresse avant le paiement.',
  email: 'E-mail',
  country: 'Pays',
  chooseCountry: 'Choisissez votre pays',
  postalCode: 'Code postal',
  zipCode: 'Code ZIP',
  region: 'Région',
  state: 'État',
  province: 'Province',
  regionalHint: 'La taxe en {country} dépend du lieu : indiquez {region} ou {postal}.',
  optionalHint: 'Nécessaire dans certains pays (par exemple les États-Unis et le Canada) pour calculer la taxe.',
  city: 'Ville',
  address: 'Adresse',
  updateDetails: 'Mettre à jour les coordonnées et la taxe',
  continue: 'Continuer',
  paymentHeading: '2. Paiement',
  testCardsHint:
    'Cartes de test de la sandbox, avec n’importe quel nom, n’importe quelle date d’expiration future et n’importe quel code de sécurité :',
  testCardSuccess: '{number} : le paiement réussit',
  testCardChallenge: '{number} : demande une authentification 3-D Secure',
  testCardDecline: '{number} : refusée',
  nameOnCard: 'Nom sur la carte',
  cardNumber: 'Numéro de carte',
  expiry: 'Expiration (MM/AA)',
  securityCode: 'Code de sécurité',
  cardSavedHint: 'Votre carte est enregistrée pour les prochains paiements de cet abonnement.',
  saveCardLabel: 'Enregistrer cette carte pour de futurs achats',
  saveCardButton: 'Enregistrer la carte',
  payButton: 'Payer {amount}',
  declined: 'Votre carte a été refusée. Rien n’a été débité. Réessayez ou utilisez une autre carte.',
  authenticationFailed:
    'L’authentification de la carte n’a pas abouti. Rien n’a été débité. Réessayez ou utilisez une autre carte.',
  requiresAction: 'Votre banque vous demande de confirmer ce paiement. Continuez vers l’authentification.',
  processing: 'Votre paiement est en cours de traitement. Rechargez cette page dans un instant.',
  continueToAuthentication: 'Continuer vers l’authentification',
  cardEnding: '{brand} se terminant par {last4}',
  methodUpdated: 'Votre moyen de paiement a été mis à jour.',
  methodUpdatedWith: 'Votre moyen de paiement a été mis à jour : {card}.',
  zeroComplete: 'Votre commande est terminée ; rien n’a été débité.',
  paymentReceived: 'Paiement reçu : {amount}. Merci.',
  paymentReceivedWith: 'Paiement reçu : {amount}, payé avec {card}. Merci.',
  subscriptionActive: 'Votre abonnement est actif.',
  canceled: 'Ce paiement n’est plus disponible : la transaction a été annulée. Rien n’a été débité.',
  noProvider: 'Ce paiement ne peut pas accepter les cartes. Contactez {merchant} pour payer.',
  detailsSummary: '{email} · {country}',
  notFoundTitle: 'Paiement introuvable',
  notFoundText: 'Ce lien de paiement n’est pas valide. Demandez un nouveau lien au vendeur.',
  confirmTitle: 'Confirmer ce paiement',
  confirmText:
    'Votre banque vous demande de confirmer un paiement de {amount}. Cette page tient lieu de la vérification 3-D Secure de la banque.',
  confirmSetupText:
    'Votre banque vous demande de confirmer l’enregistrement de votre carte ; rien n’est débité. Cette page tient lieu de la vérification 3-D Secure de la banque.',
  completeAuthentication: 'Terminer l’authentification',
  failAuthentication: 'Faire échouer l’authentification',
  authenticationFinished: 'Authentification terminée',
  backToCheckout: 'Retour au paiement',
  stripeCardHint: 'Vos données de carte vont à Stripe, notre prestataire de paiement, jamais à ce site.',
  stripeNeedsScript: 'Le paiement par carte nécessite JavaScript : le formulaire de carte est celui de Stripe.',
  paymentNotStarted: 'Le paiement n’a pas pu démarrer. Rechargez la page et réessayez ; rien n’a été débité.',
  paymentNotConfirmed: 'Le paiement n’a pas pu être confirmé. Réessayez.',
  paymentConnection: 'Le paiement n’a pas pu démarrer. Vérifiez votre connexion et réessayez.',
  errorSummary: 'Vérifiez les champs signalés et réessayez.',
  errEmail: 'Saisissez votre adresse e-mail, par exemple nom@example.com.',
  errEmailMismatch: 'Saisissez l’adresse e-mail au nom de laquelle cet achat a été établi.',
  errEmailTaken:
    'Cette adresse e-mail appartient déjà à un client. Utilisez le lien de paiement envoyé par le vendeur, ou une autre adresse e-mail.',
  errCountry: 'Choisissez votre pays dans la liste.',
  errRegionOrPostal: 'Indiquez {region} ou {postal} : la taxe en {country} en dépend.',
  errTestCard: 'La sandbox n’accepte que les cartes de test indiquées ci-dessus.',
  errCardNumber: 'Vérifiez le numéro de carte.',
  errSecurityCode: 'Le code de sécurité compte trois ou quatre chiffres.',
  errCardholder: 'Saisissez le nom figurant sur la carte (200 caractères au plus).',
  errExpiry: 'Saisissez un mois d’expiration non échu, au format MM/AA.',
  errTooLong: 'L’un des champs est trop long.',
  errCharacters: 'L’un des champs contient des caractères impossibles à enregistrer. Retirez-les et réessayez.',
  errStale: 'Cette page n’est plus à jour. Rechargez-la et réessayez ; rien n’a été débité.',
  errAlreadyPaid: 'Cette transaction est déjà payée.',
  errNotPayable: 'Cette transaction ne peut plus être payée.',
  errNotEditable: 'Les coordonnées de cette transaction ne peuvent plus changer.',
  errInProgress: 'Un paiement de cette transaction est déjà en cours. Attendez son résultat.',
  errAmountChanged:
    'Le montant dû a changé depuis l’affichage de cette page. Rien n’a été débité ; vérifiez le nouveau montant.',
  errNoProvider: 'Ce paiement ne peut pas accepter les cartes.',
  errGeneric: 'Le paiement n’a pas pu accepter ceci. Vérifiez vos coordonnées et réessayez.',
};

const es: Messages = {
  skip: 'Ir al pago',
  sandboxBadge: 'Modo de prueba: sandbox, sin pago real',
  title: 'Pago: {merchant}',
  heading: 'Pago',
  paying: 'Pago a {merchant}',
  orderDate: 'Pedido del {date}',
  billingPeriod: 'Periodo de facturación: del {start} al {end}',
  renewsDay: 'se renueva cada día',
  renewsWeek: 'se renueva cada semana',
  renewsMonth: 'se renueva cada mes',
  renewsYear: 'se renueva cada año',
  renewsDays: 'se renueva cada {count} días',
  renewsWeeks: 'se renueva cada {count} semanas',
  renewsMonths: 'se renueva cada {count} meses',
  renewsYears: 'se renueva cada {count} años',
  yourOrder: 'Tu pedido',
  colItem: 'Artículo',
  colQuantity: 'Cantidad',
  colAmount: 'Importe',
  subtotal: 'Subtotal',
  discount: 'Descuento',
  tax: 'Impuestos',
  taxVat: 'IVA {rate}',
  taxGst: 'GST {rate}',
  taxSales: 'Impuesto sobre las ventas {rate}',
  taxConsumption: 'Impuesto al consumo {rate}',
  backToMerchant: 'Volver a {merchant}',
  refusedLinkTitle: 'Enlace de pago no permitido',
  refusedLinkText:
    'Este enlace de pago lleva a una dirección que el vendedor no permite. Pide un nuevo enlace al vendedor.',
  promoHeading: 'Código promocional',
  promoCode: 'Código',
  applyCode: 'Aplicar',
  errCodeInvalid: 'Este código no es válido aquí. Compruébalo e inténtalo de nuevo.',
  errCodeExpired: 'Este código ha caducado.',
  errCodeUsed: 'Este código ya se ha usado todas las veces posibles.',
  errCodeNotEligible: 'Este código no se aplica a nada de este pedido.',
  errCodeCurrency: 'Este código es para otra moneda distinta de la de este pedido.',
  taxRate: 'Impuestos {rate}',
  creditApplied: 'Crédito aplicado',
  paid: 'Pagado',
  dueToday: 'A pagar hoy',
  detailsHeading: '1. Tus datos',
  taxHint: 'Los impuestos se calculan para tu dirección antes de pagar.',
  email: 'Correo electrónico',
  country: 'País',
  chooseCountry: 'Elige tu país',
  postalCode: 'Código postal',
  zipCode: 'Código ZIP',
  region: 'Región',
  state: 'Estado',
  province: 'Provincia',
  regionalHint: 'Los impuestos en {country} dependen del lugar: indica {region} o {postal}.',
  optionalHint: 'Necesario en algunos países (por ejemplo Estados Unidos y Canadá) para calcular los impuestos.',
  city: 'Ciudad',
  address: 'Dirección',
  updateDetails: 'Actualizar datos e impuestos',
  continue: 'Continuar',
  paymentHeading: '2. Pago',
  testCardsHint:
    'Tarjetas de prueba del sandbox, con cualquier nombre, cualquier caducidad futura y cualquier código de seguridad:',
  testCardSuccess: '{number}: el pago se completa',
  testCardChallenge: '{number}: pide autenticación 3-D Secure',
  testCardDecline: '{number}: rechazada',
  nameOnCard: 'Nombre en la tarjeta',
  cardNumber: 'Número de tarjeta',
  expiry: 'Caducidad (MM/AA)',
  securityCode: 'Código de seguridad',
  cardSavedHint: 'Tu tarjeta se guarda para los próximos pagos de esta suscripción.',
  saveCardLabel: 'Guardar esta tarjeta para futuras compras',
  saveCardButton: 'Guardar tarjeta',
  payButton: 'Pagar {amount}',
  declined: 'Tu tarjeta fue rechazada. No se ha cobrado nada. Inténtalo de nuevo o usa otra tarjeta.',
  authenticationFailed:
    'La autenticación de la tarjeta no se completó. No se ha cobrado nada. Inténtalo de nuevo o usa otra tarjeta.',
  requiresAction: 'Tu banco te pide que confirmes este pago. Continúa con la autenticación.',
  processing: 'Tu pago se está procesando. Vuelve a cargar esta página en un momento.',
  continueToAuthentication: 'Continuar con la autenticación',
  cardEnding: '{brand} terminada en {last4}',
  methodUpdated: 'Tu método de pago se ha actualizado.',
  methodUpdatedWith: 'Tu método de pago se ha actualizado: {card}.',
  zeroComplete: 'Tu pedido está completo; no se ha cobrado nada.',
  paymentReceived: 'Pago recibido: {amount}. Gracias.',
  paymentReceivedWith: 'Pago recibido: {amount}, pagado con {card}. Gracias.',
  subscriptionActive: 'Tu suscripción está activa.',
  canceled: 'Este pago ya no está disponible: la transacción se canceló. No se ha cobrado nada.',
  noProvider: 'Este pago no acepta tarjetas. Ponte en contacto con {merchant} para pagar.',
  detailsSummary: '{email} · {country}',
  notFoundTitle: 'Pago no encontrado',
  notFoundText: 'Este enlace de pago no es válido. Pide un enlace nuevo al vendedor.',
  confirmTitle: 'Confirmar este pago',
  confirmText:
    'Tu banco te pide que confirmes un pago de {amount}. Esta página hace las veces de la comprobación 3-D Secure del banco.',
  confirmSetupText:
    'Tu banco te pide que confirmes que se guarde tu tarjeta; no se cobra nada. Esta página hace las veces de la comprobación 3-D Secure del banco.',
  completeAuthentication: 'Completar la autenticación',
  failAuthentication: 'Hacer fallar la autenticación',
  authenticationFinished: 'Autenticación terminada',
  backToCheckout: 'Volver al pago',
  stripeCardHint: 'Los datos de tu tarjeta van a Stripe, nuestro procesador de pagos, nunca a este sitio.',
  stripeNeedsScript: 'Pagar con tarjeta requiere JavaScript: el formulario de tarjeta es de Stripe.',
  paymentNotStarted:
    'No se pudo iniciar el pago. Vuelve a cargar la página e inténtalo de nuevo; no se ha cobrado nada.',
  paymentNotConfirmed: 'No se pudo confirmar el pago. Inténtalo de nuevo.',
  paymentConnection: 'No se pudo iniciar el pago. Comprueba tu conexión e inténtalo de nuevo.',
  errorSummary: 'Revisa los campos marcados e inténtalo de nuevo.',
  errEmail: 'Escribe tu correo electrónico, por ejemplo nombre@example.com.',
  errEmailMismatch: 'Escribe el correo electrónico a cuyo nombre se hizo esta compra.',
  errEmailTaken:
    'Este correo electrónico ya pertenece a un cliente. Usa el enlace de pago que te envió el vendedor, u otro correo electrónico.',
  errCountry: 'Elige tu país de la lista.',
  errRegionOrPostal: 'Indica {region} o {postal}: los impuestos en {country} dependen de ello.',
  errTestCard: 'El sandbox solo acepta las tarjetas de prueba indicadas arriba.',
  errCardNumber: 'Revisa el número de tarjeta.',
  errSecurityCode: 'El código de seguridad tiene tres o cuatro dígitos.',
  errCardholder: 'Escribe el nombre que figura en la tarjeta (200 caracteres como máximo).',
  errExpiry: 'Escribe un mes de caducidad que no haya pasado, como MM/AA.',
  errTooLong: 'Uno de los campos es demasiado largo.',
  errCharacters: 'Uno de los campos contiene caracteres que no se pueden guardar. Quítalos e inténtalo de nuevo.',
  errStale: 'Esta página está desactualizada. Vuelve a cargarla e inténtalo de nuevo; no se ha cobrado nada.',
  errAlreadyPaid: 'Esta transacción ya está pagada.',
  errNotPayable: 'Esta transacción ya no se puede pagar.',
  errNotEditable: 'Los datos de esta transacción ya no pueden cambiar.',
  errInProgress: 'Ya hay un pago de esta transacción en curso. Espera su resultado.',
  errAmountChanged:
    'El importe pendiente ha cambiado desde que se mostró esta página. No se ha cobrado nada; revisa el nuevo importe.',
  errNoProvider: 'Este pago no acepta tarjetas.',
  errGeneric: 'El pago no pudo aceptar esto. Revisa tus datos e inténtalo de nuevo.',
};

const ja: Messages = {
  skip: 'お支払いへ移動',
  sandboxBadge: 'テストモード：サンドボックス（実際の支払いは発生しません）',
  title: 'お支払い：{merchant}',
  heading: 'お支払い',
  paying: '{merchant} へのお支払い',
  orderDate: '{date} のご注文',
  billingPeriod: '請求期間：{start}～{end}',
  renewsDay: '毎日更新',
  renewsWeek: '毎週更新',
  renewsMonth: '毎月更新',
  renewsYear: '毎年更新',
  renewsDays: '{count} 日ごとに更新',
  renewsWeeks: '{count} 週間ごとに更新',
  renewsMonths: '{count} か月ごとに更新',
  renewsYears: '{count} 年ごとに更新',
  yourOrder: 'ご注文内容',
  colItem: '商品',
  colQuantity: '数量',
  colAmount: '金額',
  subtotal: '小計',
  discount: '割引',
  tax: '税',
  taxVat: '付加価値税 {rate}',
  taxGst: 'GST {rate}',
  taxSales: '売上税 {rate}',
  taxConsumption: '消費税 {rate}',
  backToMerchant: '{merchant}に戻る',
  refusedLinkTitle: '許可されていない決済リンク',
  refusedLinkText: 'この決済リンクの戻り先は販売者が許可していないアドレスです。販売者に新しいリンクをご依頼ください。',
  promoHeading: 'プロモーションコード',
  promoCode: 'コード',
  applyCode: '適用',
  errCodeInvalid: 'このコードはここでは使えません。確認してもう一度お試しください。',
  errCodeExpired: 'このコードは有効期限が切れています。',
  errCodeUsed: 'このコードは利用回数の上限に達しています。',
  errCodeNotEligible: 'このコードはこのご注文の商品には適用されません。',
  errCodeCurrency: 'このコードはこのご注文とは別の通貨用です。',
  taxRate: '税 {rate}',
  creditApplied: '適用されたクレジット',
  paid: '支払済み',
  dueToday: '本日のお支払い額',
  detailsHeading: '1. お客様情報',
  taxHint: '税額はお支払い前にご住所に基づいて計算されます。',
  email: 'メールアドレス',
  country: '国',
  chooseCountry: '国を選択してください',
  postalCode: '郵便番号',
  zipCode: 'ZIP コード',
  region: '地域',
  state: '州',
  province: '州・県',
  regionalHint: '{country} の税額は所在地によって異なります。{region}または{postal}を入力してください。',
  optionalHint: '一部の国（例：アメリカ合衆国、カナダ）では税額の計算に必要です。',
  city: '市区町村',
  address: '住所',
  updateDetails: '情報と税額を更新',
  continue: '次へ',
  paymentHeading: '2. お支払い',
  testCardsHint: 'サンドボックスのテストカード（名前、将来の有効期限、セキュリティコードは任意）：',
  testCardSuccess: '{number}：支払いが成功します',
  testCardChallenge: '{number}：3-D セキュア認証を求めます',
  testCardDecline: '{number}：拒否されます',
  nameOnCard: 'カード名義',
  cardNumber: 'カード番号',
  expiry: '有効期限（MM/YY）',
  securityCode: 'セキュリティコード',
  cardSavedHint: 'このカードは、このサブスクリプションの今後のお支払いのために保存されます。',
  saveCardLabel: '今後のご購入のためにこのカードを保存する',
  saveCardButton: 'カードを保存',
  payButton: '{amount} を支払う',
  declined: 'カードが拒否されました。請求は発生していません。もう一度お試しいただくか、別のカードをご利用ください。',
  authenticationFailed:
    'カードの認証が完了しませんでした。請求は発生していません。もう一度お試しいただくか、別のカードをご利用ください。',
  requiresAction: 'カード会社がこのお支払いの確認を求めています。認証へお進みください。',
  processing: 'お支払いを処理しています。しばらくしてからこのページを再読み込みしてください。',
  continueToAuthentication: '認証へ進む',
  cardEnding: '末尾 {last4} の {brand}',
  methodUpdated: 'お支払い方法が更新されました。',
  methodUpdatedWith: 'お支払い方法が更新されました：{card}。',
  zeroComplete: 'ご注文が完了しました。請求は発生していません。',
  paymentReceived: 'お支払いを受け付けました：{amount}。ありがとうございました。',
  paymentReceivedWith: 'お支払いを受け付けました：{amount}（{card}）。ありがとうございました。',
  subscriptionActive: 'サブスクリプションが有効になりました。',
  canceled: 'このお支払いはご利用いただけません。取引はキャンセルされました。請求は発生していません。',
  noProvider:
    'このお支払いページではカードをご利用いただけません。お支払いについては {merchant} にお問い合わせください。',
  detailsSummary: '{email} · {country}',
  notFoundTitle: 'お支払いページが見つかりません',
  notFoundText: 'このお支払いリンクは無効です。販売者に新しいリンクをご依頼ください。',
  confirmTitle: 'このお支払いの確認',
  confirmText:
    'カード会社が {amount} のお支払いの確認を求めています。このページはカード会社の 3-D セキュア認証の代わりです。',
  confirmSetupText:
    'カード会社がカードの保存の確認を求めています。請求は発生しません。このページはカード会社の 3-D セキュア認証の代わりです。',
  completeAuthentication: '認証を完了する',
  failAuthentication: '認証を失敗させる',
  authenticationFinished: '認証が終了しました',
  backToCheckout: 'お支払いページに戻る',
  stripeCardHint: 'カード情報は決済代行会社の Stripe に送られ、このサイトには送られません。',
  stripeNeedsScript: 'カードでのお支払いには JavaScript が必要です（カード入力欄は Stripe のものです）。',
  paymentNotStarted:
    'お支払いを開始できませんでした。ページを再読み込みして、もう一度お試しください。請求は発生していません。',
  paymentNotConfirmed: 'お支払いを確認できませんでした。もう一度お試しください。',
  paymentConnection: 'お支払いを開始できませんでした。接続を確認して、もう一度お試しください。',
  errorSummary: '印の付いた項目を確認して、もう一度お試しください。',
  errEmail: 'メールアドレスを入力してください（例：name@example.com）。',
  errEmailMismatch: 'このご購入の宛先のメールアドレスを入力してください。',
  errEmailTaken:
    'このメールアドレスは既存のお客様のものです。販売者から届いたお支払いリンクを使うか、別のメールアドレスでお支払いください。',
  errCountry: '一覧から国を選択してください。',
  errRegionOrPostal: '{region}または{postal}を入力してください。{country} の税額はそれによって決まります。',
  errTestCard: 'サンドボックスでは上記のテストカードのみご利用いただけます。',
  errCardNumber: 'カード番号を確認してください。',
  errSecurityCode: 'セキュリティコードは 3 桁または 4 桁の数字です。',
  errCardholder: 'カード名義を入力してください（200 文字以内）。',
  errExpiry: '期限切れでない有効期限を MM/YY の形式で入力してください。',
  errTooLong: '長すぎる項目があります。',
  errCharacters: '保存できない文字を含む項目があります。その文字を削除して、もう一度お試しください。',
  errStale: 'このページは最新ではありません。再読み込みして、もう一度お試しください。請求は発生していません。',
  errAlreadyPaid: 'この取引はすでに支払済みです。',
  errNotPayable: 'この取引はもうお支払いいただけません。',
  errNotEditable: 'この取引の情報はもう変更できません。',
  errInProgress: 'この取引のお支払いはすでに処理中です。結果をお待ちください。',
  errAmountChanged:
    'このページの表示後にお支払い額が変わりました。請求は発生していません。新しい金額をご確認ください。',
  errNoProvider: 'このお支払いページではカードをご利用いただけません。',
  errGeneric: 'お支払いページで受け付けられませんでした。入力内容を確認して、もう一度お試しください。',
};

const CATALOGUE = messageCatalogue<CheckoutMessageKey>({ en, de, fr, es, ja });

export const CHECKOUT_MESSAGE_KEYS: readonly CheckoutMessageKey[] = CATALOGUE.keys;

export type CheckoutTranslate = Translate<CheckoutMessageKey>;

/** The page's text and the locale its amounts, dates and country names are formatted in. */
export interface CheckoutLocale {
  readonly language: CheckoutLanguage;
  /** A BCP 47 locale of `language` (the browser's when it is of that language, so de-CH keeps its separators). */
  readonly locale: string;
  readonly t: CheckoutTranslate;
  /** `&locale=xx` when the page was asked for a language by the query, so forms and redirects keep it. */
  readonly querySuffix: string;
}

export function checkoutTranslator(language: CheckoutLanguage): CheckoutTranslate {
  return CATALOGUE.translator(language);
}

/**
 * The checkout's language and format locale (the one rule of `negotiateLocale`): the `locale`
 * query override, the customer's stored locale unless it is the API's default `en`, the first
 * `Accept-Language` entry we have, English.
 */
export function pickCheckoutLocale(input: {
  readonly query?: string | null | undefined;
  readonly customerLocale?: string | null | undefined;
  readonly acceptLanguage?: string | null | undefined;
}): CheckoutLocale {
  const { language, locale, fromQuery } = negotiateLocale(input);
  return {
    language,
    locale,
    t: checkoutTranslator(language),
    querySuffix: fromQuery ? `&locale=${fromQuery}` : '',
  };
}

const FIELD_MESSAGES: Readonly<Record<string, CheckoutMessageKey>> = {
  email: 'errEmail',
  country_code: 'errCountry',
  card_cvc: 'errSecurityCode',
  cardholder_name: 'errCardholder',
  card_expiry: 'errExpiry',
  code: 'errCodeInvalid',
};

const CODE_MESSAGES: Readonly<Record<string, CheckoutMessageKey>> = {
  transaction_payment_in_progress: 'errInProgress',
  transaction_checkout_amount_changed: 'errAmountChanged',
  transaction_not_editable: 'errNotEditable',
  checkout_provider_not_configured: 'errNoProvider',
  invalid_characters: 'errCharacters',
  forbidden: 'errStale',
  discount_expired: 'errCodeExpired',
  discount_usage_limit_exceeded: 'errCodeUsed',
  transaction_discount_not_eligible: 'errCodeNotEligible',
  transaction_invalid_discount_currency: 'errCodeCurrency',
};

export interface LocalizedError {
  readonly text: string;
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * A refusal in the page's language, by its code and fields (the API's detail is English). Field
 * errors of the form's hidden fields (`submission_key`, `expected_amount`) mean a stale page.
 */
export function localizeCheckoutError(
  error: Pick<BillingError, 'code' | 'detail' | 'fieldErrors'>,
  t: CheckoutTranslate,
  options: { readonly sandbox: boolean; readonly alreadyPaid: boolean },
): LocalizedError {
  const fields: Record<string, string> = {};
  let stale = false;
  for (const fieldError of error.fieldErrors) {
    if (fieldError.field === 'submission_key' || fieldError.field === 'expected_amount') {
      stale = true;
      continue;
    }
    if (fieldError.field === 'form') {
      fields.form = t('errTooLong');
      continue;
    }
    if (fieldError.field === 'email' && /customer this transaction is for/.test(fieldError.message)) {
      fields.email = t('errEmailMismatch');
      continue;
    }
    if (fieldError.field === 'email' && error.code === 'checkout_email_belongs_to_customer') {
      fields.email = t('errEmailTaken');
      continue;
    }
    if (fieldError.field === 'card_number') {
      fields.card_number = t(options.sandbox ? 'errTestCard' : 'errCardNumber');
      continue;
    }
    const key = FIELD_MESSAGES[fieldError.field];
    fields[fieldError.field] = key ? t(key) : t('errGeneric');
  }
  if (stale) return { text: t('errStale'), fields: {} };
  if (fields.form) return { text: fields.form, fields: {} };
  if (Object.keys(fields).length > 0) return { text: t('errorSummary'), fields };
  if (error.code === 'transaction_not_payable') {
    return { text: t(options.alreadyPaid ? 'errAlreadyPaid' : 'errNotPayable'), fields };
  }
  const key = CODE_MESSAGES[error.code];
  return { text: t(key ?? 'errGeneric'), fields };
}
