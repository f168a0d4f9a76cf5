import { Body, Button, Container, Head, Heading, Html, Preview, Section, Text } from '@react-email/components';
import * as React from 'react';

interface WelcomeEmailProps {
  name: string;
  ctaUrl?: string;
}

export const WelcomeEmail = ({ name, ctaUrl = 'https://mailproof.test/start' }: WelcomeEmailProps) => (
  <Html lang="en">
    <Head />
    <Preview>Welcome aboard, {name}</Preview>
    <Body style={{ backgroundColor: '#f4f4f5', fontFamily: 'Arial, sans-serif' }}>
      <Container style={{ maxWidth: '560px', padding: '24px' }}>
        <Heading as="h1" style={{ color: '#111827' }}>Hello {name}</Heading>
        <Section>
          <Text style={{ fontSize: '16px' }}>Thanks for trying the welcome fixture.</Text>
          <Button href={ctaUrl} style={{ backgroundColor: '#4338ca', color: '#ffffff', padding: '12px 20px' }}>
            Get started
          </Button>
        </Section>
      </Container>
    </Body>
  </Html>
);

WelcomeEmail.PreviewProps = { name: 'Ada <Lovelace>' } satisfies WelcomeEmailProps;

export default WelcomeEmail;
