"""Ids of the procedure documents (task kinds name the documents they need by these)."""

from __future__ import annotations

__all__ = ["PROCEDURES"]


class PROCEDURES:
    """Ids of the procedure documents."""

    VERIFY = "doc_procedure_identity_verification"
    ACCOUNTS = "doc_procedure_finding_accounts"
    ATM_REFUND = "doc_procedure_atm_fee_refunds"
    DEBIT_ORDER = "doc_procedure_ordering_debit_cards"
    DEBIT_LOST = "doc_procedure_lost_or_stolen_debit_cards"
    DEBIT_ACTIVATE = "doc_procedure_activating_debit_cards"
    DEBIT_PAUSE = "doc_procedure_pausing_debit_cards"
    PIN = "doc_procedure_debit_card_pins"
    DEBIT_LIMIT = "doc_procedure_temporary_debit_limits"
    CLOSE_DEPOSIT = "doc_procedure_closing_deposit_accounts"
    OPEN_DEPOSIT = "doc_procedure_opening_deposit_accounts"
    MOBILE_DEPOSIT = "doc_procedure_photo_check_deposits"
    MOVE_MONEY = "doc_procedure_moving_money"
    SAVINGS_FEES = "doc_procedure_savings_withdrawal_fees"
    INTEREST = "doc_procedure_interest_corrections"
    REFERRAL = "doc_procedure_referrals"
    CARD_CHOICE = "doc_procedure_choosing_a_credit_card"
    CARD_LIMIT = "doc_procedure_credit_limit_increases"
    CARD_REPLACE = "doc_procedure_replacing_credit_cards"
    CARD_CLOSE = "doc_procedure_closing_credit_cards"
    CARD_PAY = "doc_procedure_paying_cards_from_checking"
    REWARDS = "doc_procedure_missing_rewards"
    CARD_DISPUTE = "doc_procedure_credit_card_disputes"
    FEE_REVERSAL = "doc_procedure_card_fee_reversals"
    SPECIALISTS = "doc_procedure_transfers_to_specialists"
    CONTACT = "doc_procedure_updating_contact_details"
    DEBIT_ALERTS = "doc_procedure_debit_card_alerts_and_blocks"
    RECURRING = "doc_procedure_recurring_charges_on_debit_cards"
    DEBIT_DISPUTE = "doc_procedure_debit_card_disputes"
    CARD_HISTORY = "doc_procedure_card_account_history"
