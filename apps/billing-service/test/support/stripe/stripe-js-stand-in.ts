/**
 * @module
 * A stand-in for Stripe.js (`https://js.stripe.com/v3/`), served by the local Stripe-format
 * server at `/v3/` so the hosted checkout can be tested in Chromium without leaving the machine.
 * It implements the documented surface the checkout page uses, and calls the local server the
 * way Stripe.js calls Stripe's API (form bodies with the publishable `key` and the intent's
 * `client_secret`, from the browser, across origins):
 *
 * - `Stripe(publishableKey)`; an invalid key throws, as Stripe.js's IntegrationError does;
 * - `stripe.elements({ mode, amount, currency, setupFutureUsage, … })`, `elements.update(…)`,
 *   `elements.create('payment')`, `element.mount(selector)`, `elements.submit()` (the card is
 *   complete: `validation_error` otherwise, and no request is made);
 * - `stripe.confirmPayment({ elements, clientSecret, confirmParams: { return_url }, redirect })`
 *   and `stripe.confirmSetup(…)`: `POST /v1/{payment,setup}_intents/{id}/confirm` with
 *   `payment_method_data[card][…]`; an error resolves `{ error }` (a decline is `card_error`);
 *   success goes to `return_url` with `payment_intent`, `payment_intent_client_secret` and
 *   `redirect_status` (or `setup_intent…`), or, with `redirect: 'if_required'`, resolves with the
 *   intent; `requires_action` goes to `next_action.redirect_to_url`.
 *
 * Stripe's Payment Element renders in a cross-origin iframe; the stand-in renders labelled inputs
 * in the container itself (no `name` attribute, so the page's own form never carries the card).
 */
export const STRIPE_JS_STAND_IN = `'use strict';
(function () {
  var api = new URL(document.currentScript.src).origin;

  function luhn(digits) {
    var sum = 0;
    for (var i = 0; i < digits.length; i += 1) {
      var d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }

  function field(container, id, label, autocomplete) {
    var wrapper = document.createElement('div');
    wrapper.className = 'field';
    var labelElement = document.createElement('label');
    labelElement.htmlFor = id;
    labelElement.textContent = label;
    var input = document.createElement('input');
    input.id = id;
    input.type = 'text';
    input.autocomplete = autocomplete;
    input.inputMode = 'numeric';
    wrapper.appendChild(labelElement);
    wrapper.appendChild(input);
    container.appendChild(wrapper);
    return input;
  }

  function paymentElement() {
    var inputs = null;
    return {
      mount: function (selector) {
        var container = typeof selector === 'string' ? document.querySelector(selector) : selector;
        if (!container) throw new Error('IntegrationError: no element matches ' + selector);
        inputs = {
          number: field(container, 'stripe-card-number', 'Card number', 'cc-number'),
          expiry: field(container, 'stripe-card-expiry', 'Expiration date (MM / YY)', 'cc-exp'),
          cvc: field(container, 'stripe-card-cvc', 'Security code', 'cc-csc'),
        };
      },
      values: function () {
        if (!inputs) return null;
        var expiry = /^\\s*(\\d{1,2})\\s*\\/\\s*(\\d{2})\\s*$/.exec(inputs.expiry.value);
        return {
          number: inputs.number.value.replace(/\\s+/g, ''),
          expMonth: expiry ? Number(expiry[1]) : 0,
          expYear: expiry ? 2000 + Number(expiry[2]) : 0,
          cvc: inputs.cvc.value.trim(),
        };
      },
    };
  }

  function validation(message) {
    return { error: { type: 'validation_error', message: message } };
  }

  function send(path, params) {
    return fetch(api + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    }).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; });
    });
  }

  window.Stripe = function (key) {
    if (typeof key !== 'string' || !/^pk_(test|live)_[0-9A-Za-z]+$/.test(key)) {
      throw new Error('IntegrationError: Invalid value for Stripe(): apiKey should be a publishable key.');
    }

    function elements(options) {
      var state = { options: Object.assign({}, options), element: null };
      return {
        _state: state,
        update: function (changes) { Object.assign(state.options, changes); },
        create: function (type) {
          if (type !== 'payment') throw new Error('IntegrationError: this stand-in has the Payment Element only');
          state.element = paymentElement();
          return state.element;
        },
        submit: function () {
          var card = state.element && state.element.values();
          if (!card) return Promise.resolve(validation('The Payment Element is not mounted.'));
          if (!/^\\d{12,19}$/.test(card.number)) return Promise.resolve(validation('Your card number is incomplete.'));
          if (!luhn(card.number)) return Promise.resolve(validation('Your card number is invalid.'));
          var today = new Date();
          if (card.expMonth < 1 || card.expMonth > 12) return Promise.resolve(validation('Your card’s expiration date is incomplete.'));
          if (card.expYear < today.getFullYear() || (card.expYear === today.getFullYear() && card.expMonth < today.getMonth() + 1)) {
            return Promise.resolve(validation('Your card’s expiration year is in the past.'));
          }
          if (!/^\\d{3,4}$/.test(card.cvc)) return Promise.resolve(validation('Your card’s security code is incomplete.'));
          return Promise.resolve({});
        },
      };
    }

    function confirm(kind) {
      return function (args) {
        var secret = args && args.clientSecret;
        var returnUrl = args && args.confirmParams && args.confirmParams.return_url;
        if (typeof secret !== 'string' || secret.indexOf('_secret_') < 0) {
          return Promise.reject(new Error('IntegrationError: clientSecret is required'));
        }
        if (args.redirect !== 'if_required' && typeof returnUrl !== 'string') {
          return Promise.reject(new Error('IntegrationError: confirmParams.return_url is required'));
        }
        var card = args.elements._state.element && args.elements._state.element.values();
        var id = secret.split('_secret_')[0];
        var params = {
          key: key,
          client_secret: secret,
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': card ? card.number : '',
          'payment_method_data[card][exp_month]': card ? String(card.expMonth) : '',
          'payment_method_data[card][exp_year]': card ? String(card.expYear) : '',
          'payment_method_data[card][cvc]': card ? card.cvc : '',
        };
        if (returnUrl) params.return_url = returnUrl;
        var resource = kind === 'setup' ? 'setup_intents' : 'payment_intents';
        return send('/v1/' + resource + '/' + id + '/confirm', params).then(function (answer) {
          if (answer.status >= 400) return { error: answer.body.error };
          var intent = answer.body;
          if (intent.status === 'requires_action' && intent.next_action && intent.next_action.redirect_to_url) {
            window.location.assign(intent.next_action.redirect_to_url.url);
            return new Promise(function () {});
          }
          if (args.redirect === 'if_required') {
            return kind === 'setup' ? { setupIntent: intent } : { paymentIntent: intent };
          }
          var url = new URL(returnUrl);
          var prefix = kind === 'setup' ? 'setup_intent' : 'payment_intent';
          url.searchParams.set(prefix, intent.id);
          url.searchParams.set(prefix + '_client_secret', secret);
          url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
          window.location.assign(url.toString());
          return new Promise(function () {});
        });
      };
    }

    return { elements: elements, confirmPayment: confirm('payment'), confirmSetup: confirm('setup') };
  };
})();
`;
