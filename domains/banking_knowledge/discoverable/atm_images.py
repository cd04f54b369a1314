"""Scanned ATM deposit envelopes the image lookup returns (fixed texts of three deposits).

Interface text: the agent reads it verbatim when it looks the deposit up.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = ["SCANNED_DEPOSITS"]

SCANNED_DEPOSITS = MappingProxyType(
    {
        "btxn_834027370c20": (
            "ATM #3921",
            (
                "\n"
                "=== ATM DEPOSIT ENVELOPE SCAN ===\n"
                "Envelope ID: ENV-2025-3921-00923\n"
                "Deposit Time: 3:47 PM CST\n"
                "ATM Location: Rho-Bank ATM #3921, Cedar Lane Branch, Austin, TX\n"
                "\n"
                "--- ENVELOPE CONTENTS ---\n"
                "Item 1: Personal Check\n"
                "  - Check Number: 7284\n"
                "  - Drawn On: First Texas Bank\n"
                "  - Payee: Derek Yamamoto\n"
                "  - Amount: $875.00\n"
                '  - Memo: "October rent refund"\n'
                "  - Signature: Present and legible\n"
                "  - Date on Check: 11/03/2025\n"
                "\n"
                "Item 2: Cash\n"
                "  - Denomination breakdown:\n"
                "    * 2 x $100 bills = $200.00\n"
                "    * 3 x $20 bills = $60.00\n"
                "  - Total Cash: $260.00\n"
                "\n"
                "--- DEPOSIT SUMMARY ---\n"
                "Check Total: $875.00\n"
                "Cash Total: $260.00\n"
                "GRAND TOTAL: $1,135.00\n"
                "\n"
                "--- MACHINE RECORD ---\n"
                "Amount Recorded by ATM: $385.00\n"
                "DISCREPANCY DETECTED: $750.00 difference\n"
                "\n"
                "--- IMAGE QUALITY ---\n"
                "Envelope scan: CLEAR\n"
                "Check front: CLEAR\n"
                'Check back (endorsement): CLEAR - endorsed "For Deposit Only - Derek Yamamoto"\n'
                "Cash image: CLEAR - bills visible and countable\n"
            ),
            (
                "Images clearly show deposit contents totaling $1,135.00. ATM machine "
                "recorded only $385.00. Discrepancy of $750.00 confirmed via image "
                "review."
            ),
        ),
        "btxn_test_deposit_001": (
            "ATM #3921",
            (
                "\n"
                "=== ATM DEPOSIT ENVELOPE SCAN ===\n"
                "Envelope ID: ENV-2025-3921-00847\n"
                "Deposit Time: 2:34 PM EST\n"
                "ATM Location: Rho-Bank ATM #3921, 742 Oak Avenue, Portland, OR\n"
                "\n"
                "--- ENVELOPE CONTENTS ---\n"
                "Item 1: Personal Check\n"
                "  - Check Number: 4821\n"
                "  - Drawn On: First National Bank\n"
                "  - Payee: Linda Patterson\n"
                "  - Amount: $875.00\n"
                '  - Memo: "October rent refund"\n'
                "  - Signature: Present and legible\n"
                "  - Date on Check: 11/05/2025\n"
                "\n"
                "Item 2: Cash\n"
                "  - Denomination breakdown:\n"
                "    * 2 x $100 bills = $200.00\n"
                "    * 3 x $20 bills = $60.00\n"
                "  - Total Cash: $260.00\n"
                "\n"
                "--- DEPOSIT SUMMARY ---\n"
                "Check Total: $875.00\n"
                "Cash Total: $260.00\n"
                "GRAND TOTAL: $1,135.00\n"
                "\n"
                "--- MACHINE RECORD ---\n"
                "Amount Recorded by ATM: $385.00\n"
                "DISCREPANCY DETECTED: $750.00 difference\n"
                "\n"
                "--- IMAGE QUALITY ---\n"
                "Envelope scan: CLEAR\n"
                "Check front: CLEAR\n"
                'Check back (endorsement): CLEAR - endorsed "For Deposit Only - Linda Patterson"\n'
                "Cash image: CLEAR - bills visible and countable\n"
            ),
            (
                "Images clearly show deposit contents totaling $1,135.00. ATM machine "
                "recorded only $385.00. Discrepancy of $750.00 confirmed via image "
                "review."
            ),
        ),
        "btxn_test_atm_dep_partial": (
            "ATM #5847",
            (
                "\n"
                "=== ATM DEPOSIT ENVELOPE SCAN ===\n"
                "Envelope ID: ENV-2025-5847-00293\n"
                "Deposit Time: 10:15 AM EST\n"
                "\n"
                "--- ENVELOPE CONTENTS ---\n"
                "Item 1: Personal Check\n"
                "  - Check Number: 7392\n"
                "  - Amount: $500.00\n"
                "\n"
                "--- DEPOSIT SUMMARY ---\n"
                "Check Total: $500.00\n"
                "Cash Total: $0.00\n"
                "GRAND TOTAL: $500.00\n"
                "\n"
                "--- MACHINE RECORD ---\n"
                "Amount Recorded by ATM: $500.00\n"
                "No discrepancy detected.\n"
            ),
            ("Images confirm deposit matches recorded amount. No discrepancy found."),
        ),
    }
)
"""Transaction id -> (ATM, envelope scan, verification notes)."""
