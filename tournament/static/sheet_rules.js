/* The rules of one deal as the sheet's scripts tell them while typing: one copy, for the grid
 * (sheet.js) and the phone (sheet_phone.js), which every sheet page loads before them.
 *
 * Hints only: the server checks everything again (scoring.check_sheet) and is the judge.
 * tests/browser/test_shared_checks.py runs these, as the grid and the phone call them, on the
 * cases that scoring.check_deal and scoring.deals.dealer_hint are tested on
 * (tests/cases/sheet_checks.json).
 *
 * The arguments: ``hand`` the deal's hand size; ``order`` the seats in bidding order, the dealer
 * last; ``bids``/``tricks`` a number or null per seat.
 */
(function () {
  "use strict";

  function sum(values) { return values.reduce(function (a, b) { return a + b; }, 0); }

  /* The dealer's forbidden bid (scoring.deals.forbidden_bid): ``forbidden`` once every other
   * seat has bid a possible bid, null before or when the dealer is free (the phone greys that
   * button); ``hint`` the same while the dealer has not bid yet (scoring.deals.dealer_hint). */
  function dealerBid(hand, order, bids) {
    const dealer = order[order.length - 1];
    const others = order.slice(0, -1).map(function (seat) { return bids[seat]; });
    let forbidden = null;
    if (others.every(function (v) { return v !== null && v <= hand; })) {
      const bid = hand - sum(others);
      if (bid >= 0 && bid <= hand) forbidden = bid;
    }
    return {dealer: dealer, forbidden: forbidden, hint: bids[dealer] === null ? forbidden : null};
  }

  /* One deal's problems, each {code, seat} with the codes of scoring.ErrorCode (seat null for
   * the whole deal), and the dealer's forbidden bid while the dealer has not bid (else null). */
  function dealProblems(hand, order, bids, tricks) {
    const problems = [];
    let tricksRangeProblem = false;  // as scoring/: a sum is only told when every tricks box fits
    [...Array(order.length).keys()].forEach(function (seat) {
      if (bids[seat] !== null && bids[seat] > hand) problems.push({code: "bid_range", seat: seat});
      if (tricks[seat] !== null && tricks[seat] > hand) {
        tricksRangeProblem = true;
        problems.push({code: "tricks_range", seat: seat});
      }
    });
    const dealer = dealerBid(hand, order, bids);
    if (dealer.forbidden !== null && bids[dealer.dealer] === dealer.forbidden) {
      problems.push({code: "dealer_bid", seat: dealer.dealer, bid: dealer.forbidden});
    }
    if (!tricksRangeProblem && tricks.every(function (v) { return v !== null; }) && sum(tricks) !== hand) {
      problems.push({code: "tricks_sum", seat: null, sum: sum(tricks)});
    }
    return {problems: problems, forbidden: dealer.hint};
  }

  window.BollenRules = {dealerBid: dealerBid, dealProblems: dealProblems};
})();
