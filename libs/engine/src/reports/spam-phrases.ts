/**
 * Phrase lists for the spam report, written naturally; they are tokenised with the same tokenizer as the
 * email text (lower case, accents folded, punctuation as separators), so "risk-free" matches "risk free".
 */

/** Phrases content filters score as promotional pressure or scams, in seven languages. */
export const SPAM_PHRASES: readonly string[] = [
  // English
  'act now', '100% free', 'risk-free', 'risk free', 'click below', 'limited time offer', 'order now', 'buy now',
  'you have been selected', 'cash bonus', 'free money', 'earn money', 'make money fast', 'double your', 'no credit check',
  'lowest price', '100% guaranteed', 'no obligation', 'once in a lifetime', 'exclusive deal', 'get paid', 'extra income',
  'work from home', 'miracle', 'this is not spam', 'not junk', 'dear friend', 'claim your prize', 'you won',
  'you are a winner', 'call now', "don't delete", 'lose weight', 'viagra', 'casino', 'wire transfer', 'free gift',
  'instant access', 'while supplies last', 'what are you waiting for', 'as seen on', 'consolidate debt', 'eliminate debt',
  'pre-approved', 'million dollars', 'urgent response', 'congratulations you', 'increase your sales', 'best price',
  'no hidden fees', 'satisfaction guaranteed', 'apply now', 'special promotion', 'cheap meds', 'bitcoin investment',
  'act immediately', 'expires today', 'final notice', 'verify your account now', 'account suspended',
  // German
  'jetzt kaufen', '100% kostenlos', 'sie haben gewonnen', 'nur heute', 'risikofrei', 'geld verdienen', 'schnell reich',
  'sofort bestellen', 'einmalige gelegenheit', 'exklusives angebot', 'gratis geschenk', 'ohne risiko',
  // French
  '100% gratuit', 'vous avez gagne', 'offre exclusive', 'argent facile', "gagnez de l'argent", 'sans engagement',
  'offre limitee', 'derniere chance', 'satisfait ou rembourse', 'achetez maintenant', 'commandez maintenant',
  // Spanish
  '100% gratis', 'usted ha ganado', 'has ganado', 'dinero facil', 'gane dinero', 'sin compromiso', 'oferta limitada',
  'ultima oportunidad', 'compre ahora', 'oferta exclusiva',
  // Portuguese
  'voce ganhou', 'dinheiro facil', 'ganhe dinheiro', 'sem compromisso', 'compre agora', 'ultima chance', 'promocao imperdivel',
  // Italian
  'hai vinto', 'offerta esclusiva', 'soldi facili', 'guadagna soldi', 'senza impegno', 'compra ora', 'ultima occasione',
  // Dutch
  'u heeft gewonnen', 'je hebt gewonnen', 'exclusieve aanbieding', 'snel geld', 'nu kopen', 'laatste kans',
];

/** Single words filters watch for, which senders of spam split with zero-width characters to hide them. */
export const WATCHED_WORDS: ReadonlySet<string> = new Set([
  'viagra', 'cialis', 'levitra', 'pharmacy', 'pills', 'meds', 'casino', 'poker', 'lottery', 'jackpot', 'winner', 'prize',
  'free', 'cash', 'money', 'bonus', 'credit', 'loan', 'loans', 'debt', 'mortgage', 'bitcoin', 'crypto', 'investment',
  'profit', 'income', 'earn', 'rich', 'million', 'offer', 'discount', 'cheap', 'sale', 'deal', 'gift', 'refund',
  'inheritance', 'urgent', 'guaranteed', 'verify', 'password', 'account', 'suspended', 'bank', 'paypal', 'invoice',
  'payment', 'click', 'unsubscribe', 'sex', 'dating', 'singles', 'weight', 'diet', 'replica', 'rolex', 'gratis',
  'kostenlos', 'gratuit', 'gewinn', 'gagnant',
]);

/** Words of unsubscribe and preference links. */
export const UNSUBSCRIBE_PHRASES: readonly string[] = [
  'unsubscribe', 'opt out', 'opt-out', 'optout', 'manage preferences', 'email preferences', 'subscription preferences',
  'update your preferences', 'manage your subscription', 'stop receiving', 'remove me',
  'abmelden', 'abbestellen', 'newsletter abbestellen', 'austragen', 'desabonner', 'se desabonner', 'desinscrire',
  'se desinscrire', 'desinscription', 'darse de baja', 'dar de baja', 'cancelar suscripcion', 'baja', 'descadastrar',
  'cancelar inscricao', 'descadastre', 'disiscriviti', 'cancellati', 'annulla iscrizione', 'afmelden', 'uitschrijven',
  'avregistrera', 'afmeld', 'wypisz', 'odhlasit',
];

/** href fragments of ESP unsubscribe tags and endpoints. */
export const UNSUBSCRIBE_HREF_MARKERS: readonly string[] = [
  'unsub', 'optout', 'opt-out', 'opt_out', 'preferences', 'asm_group', 'manage-subscription', 'subscription-center',
  'list-manage.com/profile', 'abmelden', 'desinscri', 'uitschrijven', 'afmelden',
];

/** Signals that an email is transactional (receipts, resets), which legally needs no unsubscribe. */
export const TRANSACTIONAL_PHRASES: readonly string[] = [
  'receipt', 'order confirmation', 'your order', 'order number', 'invoice', 'password reset', 'reset your password',
  'verify your email', 'verification code', 'confirm your email', 'confirm your account', 'shipping confirmation',
  'has shipped', 'tracking number', 'booking confirmation', 'your booking', 'payment received', 'security code',
  'one-time password', 'sign in link', 'login code', 'your subscription has been', 'account activity',
  'rechnung', 'bestellbestatigung', 'ihre bestellung', 'passwort zurucksetzen', 'facture', 'confirmation de commande',
  'votre commande', 'reinitialiser votre mot de passe', 'factura', 'confirmacion de pedido', 'tu pedido',
  'restablecer contrasena', 'fattura', 'conferma ordine', 'il tuo ordine', 'bestelbevestiging', 'je bestelling',
  'wachtwoord herstellen', 'fatura', 'seu pedido',
];

/** Street words for the physical-address check (CAN-SPAM, CASL and GDPR imprint rules). */
export const STREET_WORDS: ReadonlySet<string> = new Set([
  'street', 'st', 'avenue', 'ave', 'road', 'rd', 'boulevard', 'blvd', 'lane', 'ln', 'drive', 'dr', 'way', 'suite',
  'ste', 'court', 'ct', 'place', 'pl', 'square', 'sq', 'parkway', 'pkwy', 'highway', 'hwy', 'floor', 'fl', 'plaza',
  'terrace', 'crescent', 'close', 'row', 'circle', 'broadway', 'loop', 'trail', 'alley', 'pike', 'mews', 'wharf',
  'strasse', 'str', 'weg', 'platz', 'allee', 'gasse', 'ring', 'damm', 'ufer', 'chaussee',
  'rue', 'avenue', 'boulevard', 'bd', 'chemin', 'allee', 'impasse', 'quai', 'place',
  'calle', 'avenida', 'av', 'paseo', 'plaza', 'carrer', 'rua', 'travessa', 'largo', 'via', 'viale', 'piazza', 'corso',
  'straat', 'laan', 'plein', 'gracht', 'kade', 'singel', 'dijk',
]);

/** Street words written before the street's name, with the number after it ("Via Roma 1", "Calle Mayor 5", "Suite 200"). */
export const STREET_PREFIX_WORDS: ReadonlySet<string> = new Set([
  'via', 'viale', 'piazza', 'piazzale', 'corso', 'vicolo', 'strada', 'calle', 'avenida', 'av', 'avda', 'paseo', 'plaza',
  'carrer', 'rua', 'travessa', 'largo', 'praca', 'rue', 'avenue', 'boulevard', 'bd', 'chemin', 'allee', 'impasse', 'quai',
  'ul', 'ulica', 'suite', 'ste',
]);

/**
 * Merge tags that ESPs replace with the sender's postal address (lower case, as found in the text):
 * Mailchimp, SendGrid, Klaviyo, HubSpot, ActiveCampaign.
 */
export const ADDRESS_MERGE_TAGS: readonly string[] = [
  '*|list:address', '*|html:list_address', '*|list_address', '[sender_address]', '{{sender_address}}', '{{ sender_address }}',
  'organization.address', 'organization.full_address', 'company_street_address', '%sender-info',
];

export const PO_BOX_PHRASES: readonly string[] = ['po box', 'p o box', 'post office box', 'postfach', 'boite postale', 'apartado', 'caixa postal', 'casella postale', 'postbus'];

export const US_STATES: ReadonlySet<string> = new Set([
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'PR',
]);

/** Top-level domains abused far more often than used (Spamhaus and Interisle reports). */
export const SUSPICIOUS_TLDS: ReadonlySet<string> = new Set([
  'zip', 'mov', 'xyz', 'top', 'click', 'loan', 'work', 'gq', 'tk', 'ml', 'cf', 'ga', 'country', 'stream', 'download',
  'racing', 'review', 'win', 'bid', 'date', 'faith', 'party', 'science', 'men', 'kim', 'cricket', 'accountant', 'rest',
  'cam', 'icu', 'buzz', 'monster', 'sbs', 'cfd',
]);

/** TLDs common enough that "name.tld" in link text reads as a web address. */
export const COMMON_TLDS: ReadonlySet<string> = new Set([
  'com', 'net', 'org', 'io', 'co', 'uk', 'de', 'fr', 'es', 'it', 'nl', 'be', 'ch', 'at', 'eu', 'us', 'ca', 'au', 'info',
  'biz', 'app', 'dev', 'shop', 'store', 'me', 'tv', 'ai', 'se', 'no', 'dk', 'fi', 'pl', 'pt', 'br', 'mx', 'jp', 'in',
  'ru', 'cn', 'gov', 'edu', 'ly', 'gl', 'xyz', 'top', 'online', 'site', 'link', 'email', 'news',
]);
