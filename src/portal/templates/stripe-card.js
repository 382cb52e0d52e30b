// Card entry through Stripe Elements (issue 38): the card number and security code go from
// this browser to Stripe only; the form posts Stripe's PaymentMethod id (pm_...).
(function () {
  'use strict';
  var form = document.getElementById('stripe-form');
  var confirmBox = document.getElementById('stripe-confirm');
  var host = form || confirmBox;
  if (!host) return;
  var errors = document.getElementById('card-errors');
  function showError(message) {
    if (!errors) return;
    errors.textContent = message;
    errors.hidden = false;
  }
  if (typeof window.Stripe !== 'function') {
    showError('The card field could not load (Stripe.js is blocked). Allow js.stripe.com and reload the page.');
    return;
  }
  var stripe = window.Stripe(host.getAttribute('data-stripe-key'));

  // The token callback: Stripe's PaymentMethod id is all this page ever posts.
  window.billingCardToken = function (paymentMethodId) {
    document.getElementById('payment_method').value = paymentMethodId;
    form.submit();
  };

  if (confirmBox) {
    // 3-D Secure: the payer confirms with its bank; the receipt page follows.
    stripe.handleNextAction({ clientSecret: confirmBox.getAttribute('data-client-secret') }).then(function (result) {
      if (result.error) showError(result.error.message);
      else window.location.assign(confirmBox.getAttribute('data-done'));
    });
    return;
  }

  var card = stripe.elements().create('card');
  card.mount('#card-element');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    stripe.createPaymentMethod({ type: 'card', card: card }).then(function (result) {
      if (result.error) showError(result.error.message);
      else window.billingCardToken(result.paymentMethod.id);
    });
  });
})();
