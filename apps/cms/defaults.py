"""The content a fresh site starts with (seed and first read). Staff replace it from the dashboard."""

from apps.premium.policies import DELETION_CLAUSE

DEFAULT_CONTACT = {
    "full_name": "Spacemarket Support",
    "location": "100 King Street West, Toronto, ON M5X 1A9, Canada",
    "recipient_email": "support@spacemarket.example",
}

TERMS = (
    """
<h1>Terms and Conditions</h1>
<p>These terms govern your use of Spacemarket, a marketplace where hosts list work spaces and event
venues and renters book them. By creating an account or making a booking you accept these terms.</p>
<h2>1. Accounts</h2>
<ul>
<li>You must give accurate information and keep your password secret.</li>
<li>Hosts may be asked to verify their identity with documents before their listings are shown.</li>
<li>We may suspend or close an account that breaks these terms.</li>
</ul>
<h2>2. Listings and bookings</h2>
<p>Hosts are responsible for the accuracy of their listings, their prices and for honouring approved
bookings. A booking is confirmed only when the host approves it. Renters must use a space as
described in the listing and leave it as they found it.</p>
<h2>3. Payments and fees</h2>
<p>Prices are shown in US dollars with two decimals. The total includes any discount, the convenience
fee and the host's tax as shown before you pay. Hosts pay a commission on completed bookings.</p>
<h2>4. Cancellations and disputes</h2>
<p>If something goes wrong, either party may raise a dispute from the booking. Our team reviews it and
may approve a refund or reject the dispute, giving a reason.</p>
<h2>5. Premium membership</h2>
<p>The premium membership for hosts is billed annually and is <strong>non refundable</strong>. Premium
listings are """
    + DELETION_CLAUSE
    + """.</p>
<h2>6. Liability</h2>
<p>Spacemarket only lists spaces and is not a party to the agreement between host and renter.</p>
<h2>7. Contact</h2>
<p>Questions about these terms: <a href="/contact-us">contact us</a>.</p>
"""
)

PRIVACY = """
<h1>Privacy Policy</h1>
<h2>Information we collect</h2>
<ul>
<li>Account details: name, e-mail address, phone numbers and profile information you add.</li>
<li>Booking and payment records (card details are handled by our payment provider, not stored by us).</li>
<li>Identity documents a host uploads for verification; only the host and our staff can see them.</li>
<li>Technical data such as your browser, device and pages visited, with your consent for analytics.</li>
</ul>
<h2>How we use it</h2>
<p>To run your account, process bookings and payments, verify hosts, send the notifications you
chose, prevent fraud and improve the service.</p>
<h2>Sharing</h2>
<p>We share with a host or renter what a booking needs (names and contact details), and with service
providers who process payments, e-mail and hosting for us. We do not sell personal information.</p>
<h2>Security</h2>
<p>Data travels encrypted, passwords are stored as salted hashes and documents are private.</p>
<h2>Limitation of liability</h2>
<p>The platform only lists spaces; it is not a party to transactions between hosts and renters.</p>
<h2>Your rights</h2>
<ul>
<li><strong>Canada (PIPEDA):</strong> access and correct your personal information and withdraw consent.</li>
<li><strong>California (CCPA/CPRA):</strong> know, delete and correct your data and opt out of its sale or sharing.</li>
<li><strong>India (DPDP Act 2023):</strong> access, correct and erase your data and nominate a representative.</li>
</ul>
<p>To use these rights, write to us from the <a href="/contact-us">contact page</a>.</p>
"""

ABOUT = """
<h1>About Spacemarket</h1>
<p>A complete solution for workspace booking and venue management. We connect people who need a
desk, a private cabin, a meeting room, a virtual office or a venue for an event with hosts who
have the space.</p>
<h2>For renters</h2>
<p>Search by city and type of space, compare prices by the hour, day, week or month and book in a
few steps.</p>
<h2>For hosts</h2>
<p>List your spaces for free, manage requests, bookings and payouts in one dashboard, and add
helpers (sub-hosts) to run it with you.</p>
"""

FAQ = """
<h2>Frequently asked questions</h2>
<h3>How do I book a space?</h3>
<p>Open a listing, choose dates and times, add services and send the request. The host approves it.</p>
<h3>When am I charged?</h3>
<p>Your card is authorised when you request and charged when the host approves.</p>
<h3>How do I become a host?</h3>
<p>Choose <em>I want to host</em> when you register, then add your first listing.</p>
<h3>Why should I verify my identity?</h3>
<p>Verified hosts show a badge that renters trust. Upload your documents in your general settings.</p>
<h3>How do I contact support?</h3>
<p>Use the <a href="/contact-us">contact form</a>; we answer within two working days.</p>
"""

DEFAULT_PAGES = {
    "terms": ("Terms and Conditions", TERMS),
    "privacy": ("Privacy Policy", PRIVACY),
    "about": ("About us", ABOUT),
    "faq": ("Frequently asked questions", FAQ),
}
