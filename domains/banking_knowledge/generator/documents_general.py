"""General documents: the rest of what a bank's knowledge base holds.

Branches, the app, statements, security, products an agent does not service on the phone.
No task needs them, so a search must tell them apart from the documents a task does need
(several share words with procedures: ATM, card, fee, limit, transfer, rewards).
"""

from __future__ import annotations

import random

from tau_env.domains.banking_knowledge.generator.library import Library
from tau_env.domains.banking_knowledge.generator.products import BANK_NAME

__all__ = ["write_general_documents"]

_B = BANK_NAME

_FIXED: tuple[tuple[str, str, str], ...] = (
    (
        "doc_general_about_larkspur",
        f"About {_B}",
        f"""
{_B} is a community bank with branches in twelve cities. It offers checking and savings
accounts, credit cards for individuals and small businesses, and a mobile app. Phone agents
help existing customers with their accounts and cards; mortgage and auto loan questions go to
specialist teams.""",
    ),
    (
        "doc_general_branch_hours",
        "Branch opening hours",
        """
Branches open Monday to Friday from 9:00 to 17:00 and Saturday from 9:00 to 13:00. Drive-up
lanes open half an hour earlier. Branches are closed on Sundays and federal holidays; the
holiday calendar is published every December.""",
    ),
    (
        "doc_general_holiday_calendar",
        "Holiday calendar and processing days",
        """
Payments and transfers scheduled on a federal holiday are processed the next business day.
Card purchases post as usual. Interest and fees that fall due on a holiday are applied on the
next business day and dated that day.""",
    ),
    (
        "doc_general_atm_network",
        "Our ATM network",
        f"""
{_B} customers withdraw cash for free at any Larkspur ATM and at partner ATMs marked with the
lark symbol. Withdrawals at other banks' ATMs may cost a Larkspur fee (see each checking
product's fee schedule) plus the operator's own surcharge. Deposits are accepted at Larkspur
ATMs only.""",
    ),
    (
        "doc_general_mobile_app",
        "The Larkspur mobile app",
        """
The app shows balances and activity, moves money between a customer's own accounts,
deposits checks by photo, pauses debit cards and shows card numbers. It runs on current
phone operating systems; customers who cannot sign in should reset their password from the
sign-in screen.""",
    ),
    (
        "doc_general_online_banking_password",
        "Resetting an online banking password",
        """
Passwords are reset by the customer from the sign-in page with a code sent to the phone number
on file. Agents cannot see or set passwords. After five failed attempts the sign-in is locked
for 30 minutes.""",
    ),
    (
        "doc_general_statements",
        "Statements and tax forms",
        """
Monthly statements are available in the app for seven years. Paper statements can be
requested (see the fee schedule of the account). Interest tax forms are issued by January 31
for every account that earned at least $10 of interest in the previous year.""",
    ),
    (
        "doc_general_overdraft",
        "Overdraft protection",
        """
Overdraft protection links a savings account to a checking account: when the checking
balance is not enough, money moves from savings automatically, free of charge. Without it,
an overdraft item fee may apply. Customers set it up in a branch.""",
    ),
    (
        "doc_general_wires",
        "Wire transfers",
        """
Outgoing wires are sent from a branch or from online banking after a one-time security setup.
Domestic wires sent before 15:00 arrive the same day. International wires are handled by the
payments team and are not arranged on the phone.""",
    ),
    (
        "doc_general_quickpay",
        "QuickPay person-to-person payments",
        """
QuickPay sends money to friends by phone number or email, up to $2,000 a day. Payments to a
wrong recipient cannot be reversed by the bank; customers should contact the recipient.""",
    ),
    (
        "doc_general_checks_order",
        "Ordering paper checks",
        """
Checkbooks are ordered in the app or at a branch. The first book of each checking account is
free; further books cost $18. Delivery takes about ten business days.""",
    ),
    (
        "doc_general_lost_checks",
        "Lost or stolen checkbooks",
        """
A lost checkbook is reported at a branch, where the missing check numbers get a stop payment.
This is separate from debit cards: a lost debit card is cancelled or paused on the phone.""",
    ),
    (
        "doc_general_safe_deposit",
        "Safe deposit boxes",
        """
Safe deposit boxes are available in six branches in three sizes. Rent is billed yearly. Access
requires the key and photo identification; lost keys are replaced by a locksmith at the
customer's cost.""",
    ),
    (
        "doc_general_notary",
        "Notary services",
        """
Notary services are free for customers at every branch by appointment.""",
    ),
    (
        "doc_general_certificates",
        "Larkspur certificates of deposit",
        f"""
{_B} certificates lock money for 6, 12 or 24 months at a fixed rate. Early withdrawal costs
three months of interest. Certificates are opened and serviced in branches only; phone agents
can describe them but not open, change or close them.""",
    ),
    (
        "doc_general_mortgages",
        "Mortgages",
        """
Mortgage applications, payments and escrow questions are handled by the mortgage team.
Phone agents transfer these callers (see "When to transfer a call to a specialist").""",
    ),
    (
        "doc_general_auto_loans",
        "Auto loans",
        """
Auto loans are serviced by the lending team, which handles payoff quotes, payment dates and
title releases. Phone agents transfer these callers.""",
    ),
    (
        "doc_general_scams",
        "Recognising scams",
        """
Larkspur never asks for a full card number, a PIN or a password by phone, text or email.
Customers who shared a PIN should have it changed; customers who see charges they did not
make are transferred to the fraud team.""",
    ),
    (
        "doc_general_card_security",
        "Keeping cards safe",
        """
Customers should sign new cards, keep the PIN separate from the card and pause a card in the
app when it is misplaced. Chip and contactless payments are protected by one-time codes.""",
    ),
    (
        "doc_general_travel",
        "Using Larkspur cards abroad",
        """
Larkspur cards work abroad without notice. Foreign transaction fees depend on the card (see
each card's overview). Debit cards withdraw local currency at most ATMs; the daily ATM limit
still applies.""",
    ),
    (
        "doc_general_points_redemption",
        "Redeeming points",
        """
Points of every Larkspur credit card are worth one cent each when redeemed as a statement
credit, a deposit into a Larkspur account or a gift card. Points never expire while the card
is open; they are lost when the card is closed.""",
    ),
    (
        "doc_general_payment_due_dates",
        "Credit card payment due dates",
        """
Each card's payment is due 25 days after the statement date. Payments received by 17:00 on
the due date are on time. Customers may change the due date once a year in the app.""",
    ),
    (
        "doc_general_autopay",
        "Automatic card payments",
        """
Autopay pays the minimum, the statement balance or a fixed amount from a checking account on
the due date. Customers set it up in the app; agents can explain the options.""",
    ),
    (
        "doc_general_credit_scores",
        "Credit scores and reporting",
        """
Larkspur reports card accounts to the credit bureaus monthly. A free credit score is shown in
the app. Disputes about what a bureau shows go to the bureau itself.""",
    ),
    (
        "doc_general_authorized_users",
        "Authorized users on credit cards",
        """
An authorized user gets a card on the holder's account. The holder adds them in the app;
authorized users cannot change the account or ask about it by phone.""",
    ),
    (
        "doc_general_business_accounts",
        "Business deposit accounts",
        """
Business checking and savings are opened in a branch with the company's documents. Phone
agents service business credit cards but not business deposit accounts.""",
    ),
    (
        "doc_general_accessibility",
        "Accessibility services",
        """
Statements are available in large print and braille, and branches offer hearing loops.
Customers can ask for a relay service on the phone.""",
    ),
    (
        "doc_general_complaints",
        "Complaints",
        """
Customers who are unhappy with a decision can ask for it to be reviewed; agents record the
complaint in the summary of the call. Reviews are answered within 15 business days.""",
    ),
    (
        "doc_general_privacy",
        "Privacy and sharing of information",
        """
Customer information is shared only as the privacy notice describes. Agents never discuss an
account with anyone but the verified holder.""",
    ),
    (
        "doc_general_deceased_customers",
        "When a customer has died",
        """
Relatives or executors who tell us an account holder has died are transferred to the
estates team, which needs a death certificate. Accounts are frozen by that team, not by phone
agents.""",
    ),
    (
        "doc_general_power_of_attorney",
        "Powers of attorney",
        """
A power of attorney is registered in a branch. Until it is registered, the attorney is a third
party for phone agents.""",
    ),
    (
        "doc_general_interest_rates",
        "How savings rates change",
        """
Savings APYs may change at any time; customers are told in the app the day a change takes
effect. The rate applied to a month's interest is the product's APY on the last day of that
month.""",
    ),
    (
        "doc_general_fee_glossary",
        "Fee glossary",
        """
Maintenance fee: monthly charge of some accounts. Out-of-network ATM fee: Larkspur's charge for
using another bank's ATM. Surcharge: the ATM operator's own charge. Excess withdrawal fee:
charged on savings withdrawals beyond the monthly allowance. Late fee: charged on a card
payment after its due date.""",
    ),
    (
        "doc_general_debit_vs_credit",
        "Debit cards and credit cards",
        """
A debit card spends money from a checking account; a credit card borrows up to a credit
limit, repaid monthly. Debit card services are described under each checking product, credit
card services under each card.""",
    ),
    (
        "doc_general_contactless",
        "Contactless and phone wallets",
        """
Every Larkspur card works with phone wallets. A card added to a wallet keeps working in the
wallet after a replacement card with the same account is issued.""",
    ),
    (
        "doc_general_direct_deposit",
        "Direct deposit",
        """
Employers pay salaries into a Larkspur account with its account number and the routing
number 072415963. Deposits usually arrive two days before payday.""",
    ),
    (
        "doc_general_cash_deposits",
        "Cash deposits",
        """
Cash is deposited at branches and Larkspur ATMs. ATM cash deposits are available at once up to
$500, the rest the next business day.""",
    ),
    (
        "doc_general_minors",
        "Accounts for minors",
        """
Customers under 18 can hold savings accounts jointly with a parent; they cannot open checking
accounts or credit cards.""",
    ),
    (
        "doc_general_joint_accounts",
        "Joint accounts",
        """
Joint deposit accounts are opened in a branch with both holders present. Either holder can
call about the account after verifying.""",
    ),
    (
        "doc_general_legacy_kite",
        "Kite Checking (no longer offered)",
        """
Kite Checking was closed to new customers in 2021; existing Kite accounts keep their terms.
Its ATM fee refunds ended in 2023. New customers are offered Finch Checking instead.""",
    ),
    (
        "doc_general_legacy_dove",
        "Dove Savings (no longer offered)",
        """
Dove Savings was replaced by Willow Savings. Remaining Dove accounts earn the Willow APY and
follow the Willow withdrawal allowance.""",
    ),
    (
        "doc_general_card_design_gallery",
        "Debit card designs",
        """
CLASSIC is the standard blue card. PREMIUM is a metal card. CUSTOM prints a photo the customer
uploads in the app; images with logos or other people's artwork are rejected. Design fees are
listed per checking product.""",
    ),
    (
        "doc_general_shipping_addresses",
        "Where cards are shipped",
        """
Cards are only shipped to the address on file. Customers who moved must update their address
in a branch before ordering a card.""",
    ),
    (
        "doc_general_phone_etiquette",
        "How we speak with customers",
        """
Agents greet the caller, explain what they will do before doing it, and confirm what was done
at the end. They do not promise outcomes another team decides.""",
    ),
)


def write_general_documents(library: Library, rng: random.Random) -> None:
    """The general documents, plus short answers to frequent questions (drawn order)."""
    for doc_id, title, body in _FIXED:
        library.add(doc_id, title, f"# {title}\n{body}")
    questions = [
        ("Can I change my statement date?", "Statement dates change once a year in the app."),
        ("Do you charge for incoming wires?", "Incoming wires are free for every account."),
        ("How do I close online banking?", "Online banking closes with the last account."),
        ("Can I get a temporary card at a branch?", "Branches print 30-day temporary cards."),
        ("Is there a fee for QuickPay?", "QuickPay is free for every personal account."),
        ("What is the routing number?", "Larkspur's routing number is 072415963."),
        ("Can I stop a card payment?", "Card payments cannot be stopped; ask the merchant."),
        ("How long do disputes take?", "Most disputes are decided within 45 days."),
    ]
    rng.shuffle(questions)
    for number, (question, answer) in enumerate(questions, 1):
        library.add(f"doc_faq_{number:03d}", question, f"# {question}\n\n{answer}")
