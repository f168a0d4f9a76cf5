import { Body, Container, Head, Html, Tailwind, Text, pixelBasedPreset } from 'react-email';

export default function TailwindEmail() {
  return (
    <Html>
      <Tailwind config={{ presets: [pixelBasedPreset] }}>
        <Head />
        <Body className="bg-white font-sans">
          <Container className="mx-auto p-4">
            <Text className="text-lg text-red-600 sm:text-sm">Tailwind fixture</Text>
          </Container>
        </Body>
      </Tailwind>
    </Html>
  );
}
